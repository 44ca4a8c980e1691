import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { ErrorBoundary } from '@/components/error-boundary';
import { ExportMenu } from '@/components/export-menu';
import { useChartTheme } from '@/hooks/use-chart-theme';
import type { EntryFigures, SweepPoint, Comparison } from '@/lib/api-schemas';
import { latencyAxis, seriesStyle, valueAxis } from '@/lib/chart';
import { formatInt, formatLatencyUs, formatPercent, formatQps } from '@/lib/format';

import type { SweepRequest } from '../lib/experiment-block';
import { seriesTables } from '../lib/export-tables';
import {
  changeWords,
  entryLabel,
  summariseEntries,
  summariseRounds,
  verdictsOf,
  widerThanNeeded,
  type EntrySummary,
  type Spread,
} from '../lib/round-comparison';
import { pointFigure, pointNote } from '../lib/series';

type Metric = 'qps' | 'p99_us';

/** The figures compared, a chart each: throughput, then tail latency. */
const COMPARED: readonly Metric[] = ['qps', 'p99_us'];

// Titles and axes as keys: said in the page's language when drawn.
const METRICS = {
  qps: { title: 'rounds.qpsTitle', axis: 'chart.requestsPerSecond', format: formatQps, testId: 'comparison-qps-chart' },
  p99_us: { title: 'rounds.p99Title', axis: 'chart.p99Latency', format: formatLatencyUs, testId: 'comparison-p99-chart' },
} as const satisfies Record<Metric, { title: string; axis: string; format: (v: number) => string; testId: string }>;

function describeSpread(spread: Spread | null, format: (v: number) => string): string {
  if (!spread) return '—';
  return spread.min === spread.max ? format(spread.median) : `${format(spread.median)} (${format(spread.min)}–${format(spread.max)})`;
}

/** One figure per entry: its median as a bar, its range over the rounds as a thin bar across it.
 *  Once every round has run with none undisturbed, it says so rather than wait. */
function ComparisonChart({ summaries, metric, finished }: { summaries: EntrySummary[]; metric: Metric; finished: boolean }) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const { format, testId } = METRICS[metric];
  const title = t(METRICS[metric].title);
  const axis = t(METRICS[metric].axis);
  const plotted = summaries.filter((s) => s[metric] !== null).length;
  // Every round run: the line is the median's interval; before, the range of the rounds so far.
  const interval = summaries.some((s) => s.level !== null);

  const data = useMemo<ChartData<'bar', (number | [number, number] | null)[], string>>(
    () => ({
      labels: summaries.map((s) => s.label),
      datasets: [
        {
          id: 'range',
          label: t(interval ? 'rounds.intervalDataset' : 'rounds.rangeDataset'),
          data: summaries.map((s) => (s[metric] ? [s[metric].min, s[metric].max] : null)),
          backgroundColor: theme.text,
          borderColor: theme.text,
          barPercentage: 0.06,
          grouped: false,
          order: 0,
        },
        {
          id: 'median',
          label: t('rounds.medianDataset'),
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
    [summaries, metric, theme, t, interval],
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
              return (item.dataset as { id?: string }).id === 'median'
                ? t('rounds.medianTooltip', { median: format(spread.median), count: summary.measured })
                : t(interval ? 'rounds.intervalTooltip' : 'rounds.rangeTooltip', {
                    min: format(spread.min),
                    max: format(spread.max),
                    level: formatPercent((summary.level ?? 0) * 100),
                  });
            },
          },
        },
      },
    }),
    [summaries, metric, axis, format, theme, t, interval],
  );

  return (
    <ChartFrame
      testId={testId}
      title={title}
      points={plotted}
      emptyMessage={t(finished ? 'rounds.noneUndisturbed' : 'rounds.empty')}
      series={summaries.map((s) => `${s.label}: ${describeSpread(s[metric], format)}`)}
      caption={t(interval ? 'rounds.intervalCaption' : 'rounds.caption')}
    >
      <Bar data={data} options={options} datasetIdKey="id" aria-label={t('rounds.chartLabel', { title })} role="img" />
    </ChartFrame>
  );
}

/**
 * "c-epoll (your edit) against c-epoll (original): 3.1 % to 8.9 % more requests per second; no
 * difference in p99 this host can detect (±11 %)", from the backend's verdicts once every
 * round has run; until then, that the verdict waits for them.
 */
function Verdicts({ entries, verdicts, finished }: { entries: string[]; verdicts: Comparison[]; finished: boolean }) {
  const { t } = useTranslation('bench');
  const [reference, ...others] = entries;
  if (reference === undefined || others.length === 0) return null;
  if (!finished) {
    return (
      <p className="comparison__verdict" data-testid="comparison-verdict" data-call="pending">
        {t('rounds.pending')}
      </p>
    );
  }
  return (
    <>
      {others.map((subject) => {
        const { qps, p99_us: p99 } = verdictsOf(verdicts, subject);
        if (!qps || !p99) return null;
        const pairs = Math.min(qps.change?.count ?? 0, p99.change?.count ?? 0);
        return (
          <p key={subject} className="comparison__verdict" data-testid="comparison-verdict" data-call={qps.call}>
            {t('rounds.verdict', {
              subject: entryLabel(subject, entries, t),
              reference: entryLabel(reference, entries, t),
              throughput: changeWords(qps, t),
              tail: changeWords(p99, t),
              count: pairs,
            })}
            {widerThanNeeded(qps) || widerThanNeeded(p99) ? ` ${t('rounds.moreRounds')}` : null}
          </p>
        );
      })}
    </>
  );
}

/** Every round of every entry, in the order they ran. */
function RoundsTable({ entries, points }: { entries: string[]; points: SweepPoint[] }) {
  const { t } = useTranslation('bench');
  const rows = [...points].sort((a, b) => a.value - b.value || entries.indexOf(a.server) - entries.indexOf(b.server));
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t('rounds.everyRound')}>
      <table className="run-results" data-testid="comparison-rounds">
        <caption>{t('rounds.everyRound')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('rounds.columns.round')}</th>
            <th scope="col">{t('rounds.columns.server')}</th>
            <th scope="col">QPS</th>
            <th scope="col">{t('figures.p50')}</th>
            <th scope="col">{t('figures.p99')}</th>
            <th scope="col">{t('rounds.columns.note')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => {
            const qps = pointFigure(p, 'qps');
            const p99 = pointFigure(p, 'p99_us');
            return (
              <tr key={`${p.server}@${p.value}`} data-status={p.status}>
                <td>{formatInt(p.value)}</td>
                <th scope="row">{entryLabel(p.server, entries, t)}</th>
                <td>{qps !== null ? formatQps(qps) : '—'}</td>
                <td>{p.status === 'done' && p.valid && p.p50_us != null ? formatLatencyUs(p.p50_us) : '—'}</td>
                <td>{p99 !== null ? formatLatencyUs(p99) : '—'}</td>
                <td>{pointNote(p, t)}</td>
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
  /** The backend's figures and verdicts over the rounds; read once `finished`. */
  entries: EntryFigures[];
  verdicts: Comparison[];
  finished: boolean;
  /** What the export files are named after (the series' id). */
  stem: string;
}

/**
 * A comparison in rounds (an edited server against its original, run in turn): each entry's
 * median QPS and p99, side by side, with their range over the rounds while they run and their
 * intervals once all have; the verdict in words with its interval, and a table of every round.
 */
export function RoundComparison({ sweep, points, entries, verdicts, finished, stem }: RoundComparisonProps) {
  const { t } = useTranslation('bench');
  const summaries = useMemo(
    () =>
      finished && entries.length
        ? summariseEntries(entries, sweep.values.length, t)
        : summariseRounds(sweep.servers, sweep.values.length, points, t),
    [finished, entries, sweep, points, t],
  );
  const exports = useMemo(() => seriesTables(sweep, points, t), [sweep, points, t]);
  return (
    <div className="comparison" data-testid="round-comparison">
      <Verdicts entries={sweep.servers} verdicts={verdicts} finished={finished} />
      <div className="experiment__charts">
        {COMPARED.map((metric) => (
          <ErrorBoundary key={metric} name={t(metric === 'qps' ? 'boundary.throughputComparison' : 'boundary.latencyComparison')}>
            <ComparisonChart summaries={summaries} metric={metric} finished={finished} />
          </ErrorBoundary>
        ))}
      </div>
      <ErrorBoundary name={t('boundary.comparisonTables')}>
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('rounds.medians')}>
          <table className="run-results" data-testid="comparison-summary">
            <caption>{t(summaries.some((s) => s.level !== null) ? 'rounds.mediansIntervalCaption' : 'rounds.mediansCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('rounds.columns.server')}</th>
                <th scope="col">{t('rounds.columns.measured')}</th>
                <th scope="col">QPS</th>
                <th scope="col">{t('figures.p99')}</th>
              </tr>
            </thead>
            <tbody>
              {summaries.map((s) => (
                <tr key={s.entry}>
                  <th scope="row">{s.label}</th>
                  <td>{t('rounds.measuredOf', { measured: s.measured, rounds: s.rounds })}</td>
                  <td>{describeSpread(s.qps, formatQps)}</td>
                  <td>{describeSpread(s.p99_us, formatLatencyUs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {points.length > 0 ? <ExportMenu stem={stem} tables={exports} label={t('export.roundsLabel')} /> : null}
        <RoundsTable entries={sweep.servers} points={points} />
      </ErrorBoundary>
    </div>
  );
}
