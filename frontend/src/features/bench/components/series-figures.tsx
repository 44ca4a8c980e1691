import { ErrorBoundary } from '@/components/error-boundary';
import type { Sweep, SweepPoint } from '@/lib/api-schemas';

import type { SweepRequest } from '../lib/experiment-block';
import { chartMetrics, type SeriesMetric } from '../lib/series';

import { SeriesChart } from './charts/series-chart';
import { SeriesTable } from './series-table';

const CHARTS: Record<SeriesMetric, { name: string; testId: string }> = {
  qps: { name: 'The throughput chart', testId: 'series-qps-chart' },
  p99_us: { name: 'The latency chart', testId: 'series-p99-chart' },
  calls_per_request: { name: 'The system calls chart', testId: 'series-syscalls-chart' },
};

interface SeriesFiguresProps {
  sweep: SweepRequest;
  points: SweepPoint[];
  /** The newest table, for its memory per connection. */
  table: Sweep | null | undefined;
}

/** A series' charts (a series per server) and its table of points. Shared by the series widget
 *  and the presented series a class follows. */
export function SeriesFigures({ sweep, points, table }: SeriesFiguresProps) {
  return (
    <>
      <div className="experiment__charts">
        {chartMetrics(sweep).map((metric) => (
          <ErrorBoundary key={metric} name={CHARTS[metric].name}>
            <SeriesChart sweep={sweep} points={points} metric={metric} testId={CHARTS[metric].testId} />
          </ErrorBoundary>
        ))}
      </div>
      <ErrorBoundary name="The points table">
        <SeriesTable
          points={points}
          vary={sweep.vary}
          memoryPerConnection={table?.memory_per_connection ?? {}}
        />
      </ErrorBoundary>
    </>
  );
}
