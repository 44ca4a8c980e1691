import type { ReactNode } from 'react';

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
  children: ReactNode;
}

/** Titled box around one chart, with its plotted-point count exposed for tests. */
export function ChartFrame({ testId, title, points, emptyMessage, caption, controls, children }: ChartFrameProps) {
  return (
    <figure className="chart-frame" data-testid={testId} data-points={points}>
      <div className="chart-frame__header">
        <figcaption className="chart-frame__title">{title}</figcaption>
        {controls ? <div className="chart-frame__controls">{controls}</div> : null}
      </div>
      <div className="chart-frame__canvas">
        {children}
        {points === 0 && emptyMessage ? <p className="chart-frame__empty">{emptyMessage}</p> : null}
      </div>
      {caption ? <div className="chart-frame__caption">{caption}</div> : null}
    </figure>
  );
}
