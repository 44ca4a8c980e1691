import { useMemo } from 'react';

import { ErrorBoundary } from '@/components/error-boundary';
import { ExportMenu } from '@/components/export-menu';
import type { Sweep, SweepPoint } from '@/lib/api-schemas';

import type { SweepRequest } from '../lib/experiment-block';
import { seriesTables } from '../lib/export-tables';
import { chartMetrics, type SeriesMetric } from '../lib/series';

import { SeriesChart, type SeriesReference } from './charts/series-chart';
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
  /** The recorded reference, drawn dimmer under these points and given rows of its own. */
  reference?: SeriesReference | null | undefined;
}

/** A series' charts (a series per server) and its table of points, with its exports. Shared by
 *  the series widget, the presented series a class follows and a series' permalink. */
export function SeriesFigures({ sweep, points, table, reference }: SeriesFiguresProps) {
  const exports = useMemo(() => seriesTables(sweep, points), [sweep, points]);
  // Files are named after the series (its id) or, for a recorded reference, its servers.
  const stem = table?.id ?? sweep.servers.join('-');
  return (
    <>
      <div className="experiment__charts">
        {chartMetrics(sweep).map((metric) => (
          <ErrorBoundary key={metric} name={CHARTS[metric].name}>
            <SeriesChart
              sweep={sweep}
              points={points}
              metric={metric}
              testId={CHARTS[metric].testId}
              reference={reference}
            />
          </ErrorBoundary>
        ))}
      </div>
      <ErrorBoundary name="The points table">
        {points.length > 0 ? <ExportMenu stem={stem} tables={exports} label="Export the series" /> : null}
        <SeriesTable
          points={points}
          vary={sweep.vary}
          memoryPerConnection={table?.memory_per_connection ?? {}}
          reference={reference}
        />
      </ErrorBoundary>
    </>
  );
}
