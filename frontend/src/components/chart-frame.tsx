import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { layoutPicture, PICTURE, pictureSvg, picturePng, type PictureColours } from '@/lib/chart-picture';
import { downloadText, downloadUrl, exportFileName, type ExportAbout } from '@/lib/export';

import { useExportAbout } from './export-about';

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

function themeColours(frame: HTMLElement): PictureColours {
  return {
    background: themeColour(frame, '--color-surface', '#ffffff'),
    ink: themeColour(frame, '--color-text', '#1f2937'),
    muted: themeColour(frame, '--color-muted', '#5b6472'),
  };
}

/** The picture formats offered, in the order of their buttons. */
const PICTURE_FORMATS = ['png', 'svg'] as const;
type PictureFormat = (typeof PICTURE_FORMATS)[number];

/**
 * Saves the chart drawn in `frame` as `<test id>.png` or `.svg`: drawn again at PICTURE's size,
 * titled, with its legend, the caption under it on the page and what the result is (`about`).
 * Chart.js loads with the charts already; the redraw's own code only when a picture is saved.
 */
async function savePicture(frame: HTMLElement, format: PictureFormat, testId: string, title: string, about: ExportAbout | null) {
  const canvas = frame.querySelector('canvas');
  if (!canvas) return;
  const { redrawChart } = await import('@/lib/chart-redraw');
  const chart = redrawChart(canvas, { width: PICTURE.chartWidth, height: PICTURE.chartHeight, ratio: PICTURE.ratio });
  const caption = frame.querySelector('.chart-frame__caption')?.textContent ?? '';
  const layout = layoutPicture({
    title,
    about,
    legend: chart.legend,
    caption,
    chart: { width: chart.width, height: chart.height },
    width: PICTURE.width,
  });
  const colours = themeColours(frame);
  const name = exportFileName(testId || title, '', format);
  if (format === 'png') downloadUrl(name, picturePng(layout, chart.image, colours, PICTURE.ratio));
  else downloadText(name, pictureSvg(layout, chart.image.toDataURL('image/png'), colours, title), 'image/svg+xml');
}

/** Titled box around one chart, with its plotted-point count exposed for tests and a PNG of it. */
export function ChartFrame({ testId, title, points, emptyMessage, caption, controls, series, children }: ChartFrameProps) {
  const frame = useRef<HTMLElement>(null);
  const about = useExportAbout();
  const [failure, setFailure] = useState<string | null>(null);
  const { t } = useTranslation();
  const save = (format: PictureFormat) => {
    if (!frame.current) return;
    setFailure(null);
    savePicture(frame.current, format, testId, title, about).catch((error: unknown) => {
      setFailure(t('chartFrame.failed', { error: error instanceof Error ? error.message : String(error) }));
    });
  };
  return (
    <figure className="chart-frame" data-testid={testId} data-points={points} data-series={series?.join('|')} ref={frame}>
      <div className="chart-frame__header">
        <figcaption className="chart-frame__title">{title}</figcaption>
        <div className="chart-frame__controls">
          {controls}
          {PICTURE_FORMATS.map((format) => (
            <button
              key={format}
              type="button"
              className="chart-frame__png"
              onClick={() => {
                save(format);
              }}
              disabled={points === 0}
              aria-label={t(format === 'png' ? 'chartFrame.downloadPng' : 'chartFrame.downloadSvg', { title })}
              data-testid={`export-${format}`}
            >
              {format.toUpperCase()}
            </button>
          ))}
        </div>
      </div>
      {failure ? (
        <p className="chart-frame__failure" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="chart-frame__canvas">
        {children}
        {points === 0 && emptyMessage ? <p className="chart-frame__empty">{emptyMessage}</p> : null}
      </div>
      {series?.length ? <p className="visually-hidden">{t('chartFrame.drawn', { series: series.join('; ') })}</p> : null}
      {caption ? <div className="chart-frame__caption">{caption}</div> : null}
    </figure>
  );
}

/**
 * The place of a chart whose code is still loading: its frame as an empty chart shows it (title,
 * buttons, canvas box, and its caption when it always has one), so the page does not jump when
 * the chart arrives, saying it is on its way.
 */
export function ChartLoading({ title, caption }: { title: string; caption?: string }) {
  const { t } = useTranslation();
  return (
    <ChartFrame testId="chart-loading" title={title} points={0} emptyMessage={t('chartFrame.loading')} caption={caption}>
      {null}
    </ChartFrame>
  );
}
