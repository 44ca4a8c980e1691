import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ChartLoading } from '@/components/chart-frame';
import { ErrorBoundary } from '@/components/error-boundary';
import { ExportMenu } from '@/components/export-menu';

import { timeAxisMax, warmupBands, type ReferenceRun } from '../lib/chart-data';
import { runTable } from '../lib/export-tables';
import { isBusy, noteText, type RunState } from '../lib/run-state';

import { FailureDetails } from './failure-details';
import { ProfilePanel } from './profile/profile-panel';
import { RunResults, type ResultColumn } from './run-results';

// The charts come with Chart.js when a run first has one to draw: a page showing none (the lab
// before its first run) does not fetch them. Each keeps its place meanwhile (ChartLoading).
const charts = () => import('./charts/run-charts');
const QpsChart = lazy(async () => ({ default: (await charts()).QpsChart }));
const LatencyLiveChart = lazy(async () => ({ default: (await charts()).LatencyLiveChart }));
const LatencyPercentileChart = lazy(async () => ({ default: (await charts()).LatencyPercentileChart }));
const ServerStatsChart = lazy(async () => ({ default: (await charts()).ServerStatsChart }));

interface RunFiguresProps {
  state: RunState;
  /** Seconds the run is planned to last (warm-up included): the time axis's length until the
   *  data is longer; 0 when not known. */
  plannedS: number;
  /** The warm-up the run asked for, in seconds: its band on the time charts is this long.
   *  Unknown: estimated from the warm-up intervals. */
  warmupS?: number | undefined;
  /** The recorded reference, drawn dimmer under this run on every chart and given a column
   *  of its own in the table. */
  reference?: { state: RunState; label: string } | null | undefined;
}

/**
 * What one run has to show, from its state: the failure and its log, notes, the four charts
 * (mounted with the run's first data and then kept: one long-lived chart each) and the final
 * figures. Shared by the experiment widget and the presented run a class follows.
 */
export function RunFigures({ state, plannedS, warmupS, reference }: RunFiguresProps) {
  const { t } = useTranslation('bench');
  const busy = isBusy(state.phase);
  const hasData = state.progress.length > 0 || state.stats.length > 0;
  // A run that ended before sending any data shows no charts.
  const showCharts = state.phase !== 'idle' && (busy || hasData);
  // On the charts the reference is named in a word, its date left to the table under them: a
  // legend entry longer than a phone's chart is clipped at both ends.
  const under = useMemo<ReferenceRun | null>(
    () =>
      reference
        ? {
            label: t('chart.referenceShort'),
            progress: reference.state.progress,
            stats: reference.state.stats,
            result: reference.state.result,
          }
        : null,
    [reference, t],
  );
  const xMax = useMemo(
    () =>
      timeAxisMax([...state.progress, ...(under?.progress ?? [])], [...state.stats, ...(under?.stats ?? [])], plannedS),
    [state.progress, state.stats, under, plannedS],
  );
  const warmups = useMemo(() => warmupBands(state.progress, warmupS), [state.progress, warmupS]);
  const columns: ResultColumn[] = [
    ...(state.result ? [{ label: under ? t('chart.live') : null, result: state.result }] : []),
    ...(reference && under?.result ? [{ label: reference.label, result: under.result, reference: true }] : []),
  ];
  // The export names the run's column by its server id, the reference's by its label: the
  // fallbacks are column names for programs, not words for people.
  const server = state.server ?? 'run';
  const exported = runTable(columns.map((c) => ({ name: c.reference ? (c.label ?? 'reference') : server, result: c.result })));
  const tables = [{ what: 'results', label: t('export.results'), table: exported }];

  return (
    <>
      {state.failure ? <FailureDetails logs={state.failure.logs} /> : null}
      {state.notes.length > 0 ? (
        <ul className="experiment__notes" data-testid="run-notes">
          {state.notes.map((note) => {
            const text = noteText(note, t);
            return <li key={text}>{text}</li>;
          })}
        </ul>
      ) : null}

      {showCharts ? (
        <div className="experiment__charts">
          <ErrorBoundary name={t('boundary.qpsChart')}>
            <Suspense fallback={<ChartLoading title={t('chart.qps.title')} />}>
              <QpsChart progress={state.progress} xMax={xMax} warmupBands={warmups} result={state.result} reference={under} />
            </Suspense>
          </ErrorBoundary>
          <ErrorBoundary name={t('boundary.latencyChart')}>
            <Suspense fallback={<ChartLoading title={t('chart.liveLatency.title')} />}>
              <LatencyLiveChart progress={state.progress} xMax={xMax} reference={under} />
            </Suspense>
          </ErrorBoundary>
          <ErrorBoundary name={t('boundary.percentileChart')}>
            <Suspense fallback={<ChartLoading title={t('chart.percentile.title')} />}>
              <LatencyPercentileChart progress={state.progress} result={state.result} reference={under} />
            </Suspense>
          </ErrorBoundary>
          <ErrorBoundary name={t('boundary.statsChart')}>
            <Suspense fallback={<ChartLoading title={t('chart.stats.title')} caption={t('chart.stats.caption')} />}>
              <ServerStatsChart stats={state.stats} xMax={xMax} warmupBands={warmups} reference={under} />
            </Suspense>
          </ErrorBoundary>
        </div>
      ) : null}

      {columns.length > 0 ? (
        <ErrorBoundary name={t('boundary.resultsTable')}>
          <ExportMenu stem={server} tables={tables} label={t('export.resultsLabel')} />
          <RunResults columns={columns} />
        </ErrorBoundary>
      ) : null}
      {state.result?.stacks ? (
        <ErrorBoundary name={t('boundary.profile')}>
          <ProfilePanel stacks={state.result.stacks} stem={server} />
        </ErrorBoundary>
      ) : null}
    </>
  );
}
