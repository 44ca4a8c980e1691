import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import { ErrorBoundary } from '@/components/error-boundary';
import { ExportMenu } from '@/components/export-menu';
import { useChartTheme } from '@/hooks/use-chart-theme';
import type { SweepPoint } from '@/lib/api-schemas';
import { latencyAxis, seriesStyle, valueAxis } from '@/lib/chart';
import { formatInt, formatLatencyUs, formatQps } from '@/lib/format';

import type { SweepRequest } from '../lib/experiment-block';
import { seriesTables } from '../lib/export-tables';
import { entryLabel, relativeChange, summariseRounds, type EntrySummary, type Spread } from '../lib/round-comparison';
import { pointFigure, pointNote } from '../lib/series';

type Metric = 'qps' | 'p99_us';

const METRICS: Record<Metric, { title: string; axis: string; format: (v: number) => string; testId: string; better: 'higher' | 'lower' }> = {
  qps: { title: 'Throughput (QPS), median of the rounds', axis: 'requests / s', format: formatQps, testId: 'comparison-qps-chart', better: 'higher' },
  p99_us: { title: 'p99 latency, median of the rounds', axis: 'p99 latency', format: formatLatencyUs, testId: 'comparison-p99-chart', better: 'lower' },
};

function describeSpread(spread: Spread | null, format: (v: number) => string): string {
  if (!spread) return '—';
  return spread.min === spread.max ? format(spread.median) : `${format(spread.median)} (${format(spread.min)}–${format(spread.max)})`;
}

/** One figure per entry: its median as a bar, its range over the rounds as a thin bar across it. */
function ComparisonChart({ summaries, metric }: { summaries: EntrySummary[]; metric: Metric }) {
  const theme = useChartTheme();
  const { title, axis, format, testId } = METRICS[metric];
  const plotted = summaries.filter((s) => s[metric] !== null).length;

  const data = useMemo<ChartData<'bar', (number | [number, number] | null)[], string>>(
    () => ({
      labels: summaries.map((s) => s.label),
      datasets: [
        {
          id: 'range',
          label: 'range over the rounds (least to greatest)',
          data: summaries.map((s) => (s[metric] ? [s[metric].min, s[metric].max] : null)),
          backgroundColor: theme.text,
          borderColor: theme.text,
          barPercentage: 0.06,
          grouped: false,
          order: 0,
        },
        {
          id: 'median',
          label: 'median of the rounds',
          data: summaries.map((s) => s[metric]?.median ?? null),
          backgroundColor: summaries.map((_, i) => seriesStyle(i).colour),
          borderColor: summaries.map((_, i) => seriesStyle(i).colour),
          borderWidth: 2,
          barPercentage: 0.6,
          grouped: false,
          order: 1,
        },
      ],
    }),
    [summaries, metric, theme],
  );

  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      animation: false,
      scales: {
        x: { grid: { display: false }, ticks: { color: theme.text } },
        y: metric === 'p99_us' ? latencyAxis({ log: false, usPerUnit: 1, title: axis, theme }) : valueAxis(axis, format, theme),
      },
      plugins: {
        legend: { display: true },
        tooltip: {
          callbacks: {
            label: (item) => {
              const summary = summaries[item.dataIndex];
              const spread = summary?.[metric];
              if (!spread) return '';
              return item.dataset.label === 'median of the rounds'
                ? `median ${format(spread.median)} over ${summary.measured} round${summary.measured === 1 ? '' : 's'}`
                : `range ${format(spread.min)} to ${format(spread.max)}`;
            },
          },
        },
      },
    }),
    [summaries, metric, axis, format, theme],
  );

  return (
    <ChartFrame
      testId={testId}
      title={title}
      points={plotted}
      emptyMessage="Waiting for the first finished round…"
      series={summaries.map((s) => `${s.label}: ${describeSpread(s[metric], format)}`)}
      caption="Bar: the median over the rounds. Line across it: the least and greatest round."
    >
      <Bar data={data} options={options} datasetIdKey="id" aria-label={`${title}, by server`} role="img" />
    </ChartFrame>
  );
}

/** "Your edit: 12 % more requests per second and 5 % lower p99 than the original, medians of 3 rounds." */
function Verdict({ summaries }: { summaries: EntrySummary[] }) {
  const [original, edit, ...more] = summaries;
  if (!original || !edit || more.length) return null;
  const qps = relativeChange(edit.qps, original.qps);
  const p99 = relativeChange(edit.p99_us, original.p99_us);
  if (qps === null || p99 === null) return null;
  const percent = (v: number) => `${Math.abs(Math.round(v * 100))} %`;
  const rounds = Math.min(edit.measured, original.measured);
  return (
    <p className="comparison__verdict" data-testid="comparison-verdict">
      {edit.label}: {qps === 0 ? 'the same throughput' : `${percent(qps)} ${qps > 0 ? 'more' : 'fewer'} requests per second`} and{' '}
      {p99 === 0 ? 'the same p99' : `a ${percent(p99)} ${p99 > 0 ? 'higher' : 'lower'} p99`} than {original.label}, medians of{' '}
      {rounds} round{rounds === 1 ? '' : 's'}. Where the ranges overlap, the difference may be noise: run more rounds.
    </p>
  );
}

/** Every round of every entry, in the order they ran. */
function RoundsTable({ entries, points }: { entries: string[]; points: SweepPoint[] }) {
  const rows = [...points].sort((a, b) => a.value - b.value || entries.indexOf(a.server) - entries.indexOf(b.server));
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Every round">
      <table className="run-results" data-testid="comparison-rounds">
        <caption>Every round</caption>
        <thead>
          <tr>
            <th scope="col">round</th>
            <th scope="col">server</th>
            <th scope="col">QPS</th>
            <th scope="col">p50</th>
            <th scope="col">p99</th>
            <th scope="col">note</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => {
            const qps = pointFigure(p, 'qps');
            const p99 = pointFigure(p, 'p99_us');
            return (
              <tr key={`${p.server}@${p.value}`} data-status={p.status}>
                <td>{formatInt(p.value)}</td>
                <th scope="row">{entryLabel(p.server, entries)}</th>
                <td>{qps !== null ? formatQps(qps) : '—'}</td>
                <td>{p.status === 'done' && p.valid && p.p50_us != null ? formatLatencyUs(p.p50_us) : '—'}</td>
                <td>{p99 !== null ? formatLatencyUs(p99) : '—'}</td>
                <td>{pointNote(p)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

interface RoundComparisonProps {
  sweep: SweepRequest;
  points: SweepPoint[];
  /** What the export files are named after (the series' id). */
  stem: string;
}

/**
 * A comparison in rounds (an edited server against its original, run in turn): each entry's
 * median QPS and p99 with their range over the rounds, side by side, the verdict in words, and
 * a table of every round.
 */
export function RoundComparison({ sweep, points, stem }: RoundComparisonProps) {
  const summaries = useMemo(() => summariseRounds(sweep.servers, sweep.values.length, points), [sweep, points]);
  const exports = useMemo(() => seriesTables(sweep, points), [sweep, points]);
  return (
    <div className="comparison" data-testid="round-comparison">
      <Verdict summaries={summaries} />
      <div className="experiment__charts">
        {(['qps', 'p99_us'] as const).map((metric) => (
          <ErrorBoundary key={metric} name={`The ${metric === 'qps' ? 'throughput' : 'latency'} comparison`}>
            <ComparisonChart summaries={summaries} metric={metric} />
          </ErrorBoundary>
        ))}
      </div>
      <ErrorBoundary name="The comparison's tables">
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Medians over the rounds">
          <table className="run-results" data-testid="comparison-summary">
            <caption>Medians over the rounds (least–greatest)</caption>
            <thead>
              <tr>
                <th scope="col">server</th>
                <th scope="col">rounds measured</th>
                <th scope="col">QPS</th>
                <th scope="col">p99</th>
              </tr>
            </thead>
            <tbody>
              {summaries.map((s) => (
                <tr key={s.entry}>
                  <th scope="row">{s.label}</th>
                  <td>
                    {s.measured} of {s.rounds}
                  </td>
                  <td>{describeSpread(s.qps, formatQps)}</td>
                  <td>{describeSpread(s.p99_us, formatLatencyUs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {points.length > 0 ? <ExportMenu stem={stem} tables={exports} label="Export the rounds" /> : null}
        <RoundsTable entries={sweep.servers} points={points} />
      </ErrorBoundary>
    </div>
  );
}
