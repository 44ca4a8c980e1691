import { useMemo } from 'react';

import { ErrorBoundary } from '@/components/error-boundary';
import { useHealth } from '@/hooks/use-health';
import { useServers } from '@/hooks/use-servers';
import type { Baseline } from '@/lib/api-schemas';

import { useRun } from '../hooks/use-run';
import { describeBaseline, replayRun } from '../lib/baseline';
import { timeAxisMax, warmupBands } from '../lib/chart-data';
import type { Experiment, RunRequest } from '../lib/experiment-block';
import { runBlockedReason } from '../lib/readiness';
import { isCancellable } from '../lib/run-state';

import { BaselineNote } from './baseline-note';
import { LatencyLiveChart } from './charts/latency-live-chart';
import { LatencyPercentileChart } from './charts/latency-percentile-chart';
import { QpsChart } from './charts/qps-chart';
import { ServerStatsChart } from './charts/server-stats-chart';
import { ExperimentControls, type RunGate } from './experiment-controls';
import { ExperimentParams } from './experiment-params';
import { FailureDetails } from './failure-details';
import { RunResults } from './run-results';
import { RunStateLabel } from './run-state-label';

import './experiment-widget.css';

interface ExperimentWidgetProps {
  experiment: Experiment;
  request: RunRequest;
  experimentKey: string;
  /** The recorded reference result, shown until a live run starts. */
  baseline?: Baseline | undefined;
  /** Set when this browser may not run benchmarks: shown instead of Run. */
  gate?: RunGate | null | undefined;
}

const BUSY = new Set(['submitting', 'queued', 'starting', 'warmup', 'measure']);

/** The Run widget: parameters, Run/Cancel, live state, four charts and the final figures. */
export function ExperimentWidget({ experiment, request, experimentKey, baseline, gate }: ExperimentWidgetProps) {
  const health = useHealth();
  const servers = useServers();
  const { state: live, start, cancel } = useRun(experimentKey, request);
  const recorded = useMemo(() => (baseline?.kind === 'run' ? replayRun(baseline) : null), [baseline]);
  // Until the learner runs it, the widget shows the recorded reference result.
  const showingRecorded = live.phase === 'idle' && recorded !== null;
  const state = showingRecorded ? recorded : live;

  const serverId = request.server;
  const server = servers.data?.find((s) => s.id === serverId);
  const blocked = runBlockedReason({
    health: health.data,
    healthError: health.error,
    servers: servers.data,
    serverId,
  });
  const busy = BUSY.has(state.phase);
  const hasData = state.progress.length > 0 || state.stats.length > 0;
  // Charts appear with the first run and then stay mounted (one long-lived chart each);
  // a run that ended before sending any data shows none.
  const showCharts = state.phase !== 'idle' && (busy || hasData);
  const planned = experiment.duration_s !== undefined ? experiment.duration_s + (experiment.warmup_s ?? 0) : 0;
  const xMax = useMemo(
    () => timeAxisMax(state.progress, state.stats, planned),
    [state.progress, state.stats, planned],
  );
  const warmups = useMemo(() => warmupBands(state.progress), [state.progress]);

  return (
    <section className="experiment" aria-label={`Experiment: ${experiment.title ?? serverId}`}>
      <header className="experiment__header">
        <div>
          <p className="experiment__kicker">Experiment</p>
          <p className="experiment__title">{experiment.title ?? `Benchmark ${server?.title ?? serverId}`}</p>
        </div>
        {showingRecorded ? <p className="run-state">reference result</p> : <RunStateLabel state={state} />}
      </header>
      {showingRecorded && baseline ? <BaselineNote text={describeBaseline(baseline)} canRun={!gate} /> : null}

      <ExperimentParams experiment={experiment} servers={server ? [server] : []} />

      <ExperimentControls
        runLabel={showingRecorded ? 'Run live' : 'Run benchmark'}
        onRun={() => void start()}
        onCancel={isCancellable(state) ? () => void cancel() : null}
        blocked={blocked}
        busy={busy}
        gate={gate}
      />

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
    </section>
  );
}
