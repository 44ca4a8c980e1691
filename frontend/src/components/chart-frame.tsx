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
  children: ReactNode;
}

/** Titled box around one chart, with its plotted-point count exposed for tests. */
export function ChartFrame({ testId, title, points, emptyMessage, caption, children }: ChartFrameProps) {
  return (
    <figure className="chart-frame" data-testid={testId} data-points={points}>
      <figcaption className="chart-frame__title">{title}</figcaption>
      <div className="chart-frame__canvas">
        {children}
        {points === 0 && emptyMessage ? <p className="chart-frame__empty">{emptyMessage}</p> : null}
      </div>
      {caption ? <div className="chart-frame__caption">{caption}</div> : null}
    </figure>
  );
}
