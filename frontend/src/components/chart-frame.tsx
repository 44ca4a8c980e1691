import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { canvasToPng, downloadUrl, exportFileName } from '@/lib/export';

import './chart-frame.css';

interface ChartFrameProps {
  /** Stable test id, e.g. `qps-chart`. */
  testId: string;
  title: string;
  /** How many points the chart currently plots (exposed as `data-points`). */
  points: number;
  /** Shown over the chart while it has nothing to plot. */
  emptyMessage?: string;
  caption?: ReactNode;
  /** Beside the title: the chart's own switches (e.g. a log scale). */
  controls?: ReactNode;
  /** The names of the lines drawn (a canvas's legend is pixels): said to screen readers, and
   *  exposed as `data-series` for tests. */
  series?: string[];
  children: ReactNode;
}

/** A colour of the page's theme, as the charts read them (global.css). */
function themeColour(element: Element, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

/** Saves the chart drawn in `frame` as `<test id>.png`, on the theme's surface, titled. */
function downloadPng(frame: HTMLElement, testId: string, title: string): void {
  const canvas = frame.querySelector('canvas');
  if (!canvas) return;
  const png = canvasToPng(canvas, {
    background: themeColour(frame, '--color-surface', '#ffffff'),
    ink: themeColour(frame, '--color-text', '#1f2937'),
    title,
    ratio: canvas.clientWidth > 0 ? canvas.width / canvas.clientWidth : window.devicePixelRatio,
  });
  downloadUrl(exportFileName(testId || title, '', 'png'), png);
}

/** Titled box around one chart, with its plotted-point count exposed for tests and a PNG of it. */
export function ChartFrame({ testId, title, points, emptyMessage, caption, controls, series, children }: ChartFrameProps) {
  const frame = useRef<HTMLElement>(null);
  const { t } = useTranslation();
  return (
    <figure className="chart-frame" data-testid={testId} data-points={points} data-series={series?.join('|')} ref={frame}>
      <div className="chart-frame__header">
        <figcaption className="chart-frame__title">{title}</figcaption>
        <div className="chart-frame__controls">
          {controls}
          <button
            type="button"
            className="chart-frame__png"
            onClick={() => {
              if (frame.current) downloadPng(frame.current, testId, title);
            }}
            disabled={points === 0}
            aria-label={t('chartFrame.downloadPng', { title })}
            data-testid="export-png"
          >
            PNG
          </button>
        </div>
      </div>
      <div className="chart-frame__canvas">
        {children}
        {points === 0 && emptyMessage ? <p className="chart-frame__empty">{emptyMessage}</p> : null}
      </div>
      {series?.length ? <p className="visually-hidden">{t('chartFrame.drawn', { series: series.join('; ') })}</p> : null}
      {caption ? <div className="chart-frame__caption">{caption}</div> : null}
    </figure>
  );
}
