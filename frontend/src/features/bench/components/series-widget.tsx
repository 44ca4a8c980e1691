import { useId } from 'react';

import { ErrorBoundary } from '@/components/error-boundary';
import { useHealth } from '@/hooks/use-health';
import { useServers } from '@/hooks/use-servers';
import type { Baseline } from '@/lib/api-schemas';

import { useSweep } from '../hooks/use-sweep';
import { describeBaseline } from '../lib/baseline';
import type { Experiment, SweepRequest } from '../lib/experiment-block';
import { runBlockedReason } from '../lib/readiness';

import { BaselineNote } from './baseline-note';
import { SeriesChart } from './charts/series-chart';
import { ExperimentParams } from './experiment-params';
import { SeriesTable } from './series-table';

import './experiment-widget.css';

interface SeriesWidgetProps {
  experiment: Experiment;
  sweep: SweepRequest;
  /** The recorded reference result, shown until a live run starts. */
  baseline?: Baseline | undefined;
}

const BUSY = new Set(['submitting', 'running']);

/** A series experiment: several servers and/or one parameter over several values, one run
 *  per point through POST /api/sweeps, drawn as one chart with a series per server. */
export function SeriesWidget({ experiment, sweep, baseline }: SeriesWidgetProps) {
  const health = useHealth();
  const servers = useServers();
  const { state, start, cancel } = useSweep(sweep);
  const recorded = baseline?.kind === 'series' ? baseline.result.table : undefined;
  // Until the learner runs it, the widget shows the recorded reference result.
  const showingRecorded = state.phase === 'idle' && recorded !== undefined;
  const points = showingRecorded ? recorded.points : state.points;
  const table = showingRecorded ? recorded : state.table;
  const blockedId = useId();

  const blocked =
    sweep.servers
      .map((serverId) => runBlockedReason({ health: health.data, healthError: health.error, servers: servers.data, serverId }))
      .find((reason) => reason !== null) ?? null;
  const busy = BUSY.has(state.phase);
  const total = sweep.servers.length * sweep.values.length;
  const title = experiment.title ?? `${sweep.servers.join(' vs ')}${sweep.values.length > 1 ? ` by ${sweep.vary}` : ''}`;
  const known = (servers.data ?? []).filter((s) => sweep.servers.includes(s.id));

  return (
    <section className="experiment" aria-label={`Experiment: ${title}`} data-testid="series-experiment">
      <header className="experiment__header">
        <div>
          <p className="experiment__kicker">Experiment · series</p>
          <p className="experiment__title">{title}</p>
        </div>
        <p className="run-state" data-testid="series-state">
          {showingRecorded
            ? 'reference result'
            : state.phase === 'running'
              ? `running: ${state.points.length} of ${total} points`
              : state.phase}
        </p>
      </header>
      {showingRecorded && baseline ? <BaselineNote text={describeBaseline(baseline)} /> : null}

      <ExperimentParams experiment={experiment} servers={known} />

      <div className="experiment__controls">
        <button
          type="button"
          className="button button--primary"
          onClick={() => void start()}
          disabled={blocked !== null || busy}
          aria-describedby={blocked ? blockedId : undefined}
        >
          {showingRecorded ? 'Run live' : `Run ${total} benchmark${total > 1 ? 's' : ''}`}
        </button>
        {state.phase === 'running' ? (
          <button type="button" className="button" onClick={() => void cancel()}>
            Cancel
          </button>
        ) : null}
        {blocked ? (
          <p className="experiment__blocked" id={blockedId} data-testid="run-blocked">
            {blocked}
          </p>
        ) : null}
      </div>
      {state.error ? (
        <p className="experiment__error" role="alert">
          {state.error}
        </p>
      ) : null}

      {showingRecorded || (state.phase !== 'idle' && state.phase !== 'submitting') ? (
        <>
          <div className="experiment__charts">
            <ErrorBoundary name="The throughput chart">
              <SeriesChart sweep={sweep} points={points} metric="qps" testId="series-qps-chart" />
            </ErrorBoundary>
            <ErrorBoundary name="The latency chart">
              <SeriesChart sweep={sweep} points={points} metric="p99_us" testId="series-p99-chart" />
            </ErrorBoundary>
          </div>
          <ErrorBoundary name="The points table">
            <SeriesTable
              points={points}
              vary={sweep.vary}
              memoryPerConnection={table?.memory_per_connection ?? {}}
            />
          </ErrorBoundary>
        </>
      ) : null}
    </section>
  );
}
