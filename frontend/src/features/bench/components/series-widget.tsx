import { useId } from 'react';

import { ErrorBoundary } from '@/components/error-boundary';
import { useHealth } from '@/hooks/use-health';
import { useServers } from '@/hooks/use-servers';

import { useSweep } from '../hooks/use-sweep';
import type { Experiment, SweepRequest } from '../lib/experiment-block';
import { runBlockedReason } from '../lib/readiness';

import { SeriesChart } from './charts/series-chart';
import { ExperimentParams } from './experiment-params';
import { SeriesTable } from './series-table';

import './experiment-widget.css';

interface SeriesWidgetProps {
  experiment: Experiment;
  sweep: SweepRequest;
}

const BUSY = new Set(['submitting', 'running']);

/** A series experiment: several servers and/or one parameter over several values, one run
 *  per point through POST /api/sweeps, drawn as one chart with a series per server. */
export function SeriesWidget({ experiment, sweep }: SeriesWidgetProps) {
  const health = useHealth();
  const servers = useServers();
  const { state, start, cancel } = useSweep(sweep);
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
          {state.phase === 'running' ? `running: ${state.points.length} of ${total} points` : state.phase}
        </p>
      </header>

      <ExperimentParams experiment={experiment} servers={known} />

      <div className="experiment__controls">
        <button
          type="button"
          className="button button--primary"
          onClick={() => void start()}
          disabled={blocked !== null || busy}
          aria-describedby={blocked ? blockedId : undefined}
        >
          Run {total} benchmark{total > 1 ? 's' : ''}
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

      {state.phase !== 'idle' && state.phase !== 'submitting' ? (
        <>
          <div className="experiment__charts">
            <ErrorBoundary name="The throughput chart">
              <SeriesChart sweep={sweep} points={state.points} metric="qps" testId="series-qps-chart" />
            </ErrorBoundary>
            <ErrorBoundary name="The latency chart">
              <SeriesChart sweep={sweep} points={state.points} metric="p99_us" testId="series-p99-chart" />
            </ErrorBoundary>
          </div>
          <ErrorBoundary name="The points table">
            <SeriesTable
              points={state.points}
              vary={sweep.vary}
              memoryPerConnection={state.table?.memory_per_connection ?? {}}
            />
          </ErrorBoundary>
        </>
      ) : null}
    </section>
  );
}
