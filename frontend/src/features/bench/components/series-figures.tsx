import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ChartLoading } from '@/components/chart-frame';
import { ErrorBoundary } from '@/components/error-boundary';
import { ExportMenu } from '@/components/export-menu';
import type { Stacks, Sweep, SweepPoint } from '@/lib/api-schemas';

import type { SweepRequest } from '../lib/experiment-block';
import { seriesTables } from '../lib/export-tables';
import { isStackProfile } from '../lib/flame';
import { chartMetrics, type RunningMark, type SeriesMetric } from '../lib/series';

import type { SeriesReference } from './charts/series-chart';
import { ProfileComparison } from './profile/profile-comparison';
import { SeriesTable } from './series-table';

// The charts come with Chart.js when a series first draws them; each keeps its place meanwhile.
const SeriesChart = lazy(async () => ({ default: (await import('./charts/series-chart')).SeriesChart }));

// `title` is the chart's own (series-chart's), said while it loads.
const CHARTS = {
  qps: { name: 'boundary.throughputChart', title: 'chart.qps.title', testId: 'series-qps-chart' },
  p99_us: { name: 'boundary.latencyChart', title: 'chart.p99Latency', testId: 'series-p99-chart' },
  calls_per_request: { name: 'boundary.syscallsChart', title: 'chart.series.callsTitle', testId: 'series-syscalls-chart' },
} as const satisfies Record<SeriesMetric, { name: string; title: string; testId: string }>;

interface SeriesFiguresProps {
  sweep: SweepRequest;
  points: SweepPoint[];
  /** The newest table, for its memory per connection. */
  table: Sweep | null | undefined;
  /** The recorded reference, drawn dimmer under these points and given rows of its own. */
  reference?: SeriesReference | null | undefined;
  /** The point being measured, drawn on the throughput and latency charts until it lands. */
  running?: RunningMark | null | undefined;
  /** A recorded profiled series' profiles by run id: its runs are in no course's store. */
  profiles?: Record<string, Stacks> | null | undefined;
}

/** A series' charts (a series per server) and its table of points, with its exports. Shared by
 *  the series widget, the presented series a class follows and a series' permalink. */
export function SeriesFigures({ sweep, points, table, reference, running, profiles }: SeriesFiguresProps) {
  const { t } = useTranslation('bench');
  const exports = useMemo(() => seriesTables(sweep, points, t), [sweep, points, t]);
  // Files are named after the series (its id) or, for a recorded reference, its servers.
  const stem = table?.id ?? sweep.servers.join('-');
  // On the charts the reference is named in a word (its date is in the table): a legend entry
  // longer than a phone's chart is clipped at both ends.
  const charted = useMemo(() => (reference ? { ...reference, label: t('chart.referenceShort') } : reference), [reference, t]);
  return (
    <>
      <div className="experiment__charts">
        {chartMetrics(sweep).map((metric) => (
          <ErrorBoundary key={metric} name={t(CHARTS[metric].name)}>
            <Suspense fallback={<ChartLoading title={t(CHARTS[metric].title)} />}>
              <SeriesChart
                sweep={sweep}
                points={points}
                metric={metric}
                testId={CHARTS[metric].testId}
                reference={charted}
                running={metric === 'calls_per_request' ? null : running}
              />
            </Suspense>
          </ErrorBoundary>
        ))}
      </div>
      <ErrorBoundary name={t('boundary.pointsTable')}>
        {points.length > 0 ? <ExportMenu stem={stem} tables={exports} label={t('export.seriesLabel')} /> : null}
        <SeriesTable
          points={points}
          vary={sweep.vary}
          memoryPerConnection={table?.memory_per_connection ?? {}}
          reference={reference}
        />
      </ErrorBoundary>
      {isStackProfile(sweep.base?.profile) ? (
        <ErrorBoundary name={t('boundary.profile')}>
          <ProfileComparison sweep={sweep} points={points} stem={stem} recorded={profiles} />
        </ErrorBoundary>
      ) : null}
    </>
  );
}
