import { useMemo } from 'react';

import { ErrorBoundary } from '@/components/error-boundary';

import { timeAxisMax, warmupBands } from '../lib/chart-data';
import { isBusy, type RunState } from '../lib/run-state';

import { LatencyLiveChart } from './charts/latency-live-chart';
import { LatencyPercentileChart } from './charts/latency-percentile-chart';
import { QpsChart } from './charts/qps-chart';
import { ServerStatsChart } from './charts/server-stats-chart';
import { FailureDetails } from './failure-details';
import { RunResults } from './run-results';

interface RunFiguresProps {
  state: RunState;
  /** Seconds the run is planned to last (warm-up included): the time axis's length until the
   *  data is longer; 0 when not known. */
  plannedS: number;
}

/**
 * What one run has to show, from its state: the failure and its log, notes, the four charts
 * (mounted with the run's first data and then kept: one long-lived chart each) and the final
 * figures. Shared by the experiment widget and the presented run a class follows.
 */
export function RunFigures({ state, plannedS }: RunFiguresProps) {
  const busy = isBusy(state.phase);
  const hasData = state.progress.length > 0 || state.stats.length > 0;
  // A run that ended before sending any data shows no charts.
  const showCharts = state.phase !== 'idle' && (busy || hasData);
  const xMax = useMemo(
    () => timeAxisMax(state.progress, state.stats, plannedS),
    [state.progress, state.stats, plannedS],
  );
  const warmups = useMemo(() => warmupBands(state.progress), [state.progress]);

  return (
    <>
      {state.failure ? <FailureDetails logs={state.failure.logs} /> : null}
      {state.notes.length > 0 ? (
        <ul className="experiment__notes" data-testid="run-notes">
          {state.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}

      {showCharts ? (
        <div className="experiment__charts">
          <ErrorBoundary name="The QPS chart">
            <QpsChart progress={state.progress} xMax={xMax} warmupBands={warmups} />
          </ErrorBoundary>
          <ErrorBoundary name="The latency chart">
            <LatencyLiveChart progress={state.progress} xMax={xMax} />
          </ErrorBoundary>
          <ErrorBoundary name="The percentile chart">
            <LatencyPercentileChart progress={state.progress} summary={state.result?.summary ?? null} />
          </ErrorBoundary>
          <ErrorBoundary name="The server stats chart">
            <ServerStatsChart stats={state.stats} xMax={xMax} warmupBands={warmups} />
          </ErrorBoundary>
        </div>
      ) : null}

      {state.result ? (
        <ErrorBoundary name="The results table">
          <RunResults result={state.result} />
        </ErrorBoundary>
      ) : null}
    </>
  );
}
