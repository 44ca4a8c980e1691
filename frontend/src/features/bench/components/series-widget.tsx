import { ErrorBoundary } from '@/components/error-boundary';
import { useHealth } from '@/hooks/use-health';
import { useServers } from '@/hooks/use-servers';
import type { Baseline } from '@/lib/api-schemas';

import { useSweep } from '../hooks/use-sweep';
import { describeBaseline } from '../lib/baseline';
import type { Experiment, SweepRequest } from '../lib/experiment-block';
import { runBlockedReason } from '../lib/readiness';
import { chartMetrics, isTraced, type SeriesMetric } from '../lib/series';

import { BaselineNote } from './baseline-note';
import { SeriesChart } from './charts/series-chart';
import { ExperimentControls, type RunGate } from './experiment-controls';
import { ExperimentParams } from './experiment-params';
import { SeriesTable } from './series-table';

import './experiment-widget.css';

interface SeriesWidgetProps {
  experiment: Experiment;
  sweep: SweepRequest;
  /** The recorded reference result, shown until a live run starts. */
  baseline?: Baseline | undefined;
  /** Set when this browser may not run benchmarks: shown instead of Run. */
  gate?: RunGate | null | undefined;
}

const BUSY = new Set(['submitting', 'running']);

const CHARTS: Record<SeriesMetric, { name: string; testId: string }> = {
  qps: { name: 'The throughput chart', testId: 'series-qps-chart' },
  p99_us: { name: 'The latency chart', testId: 'series-p99-chart' },
  calls_per_request: { name: 'The system calls chart', testId: 'series-syscalls-chart' },
};

/** A series experiment: several servers and/or one parameter over several values, one run
 *  per point through POST /api/sweeps, drawn as one chart with a series per server. */
export function SeriesWidget({ experiment, sweep, baseline, gate }: SeriesWidgetProps) {
  const health = useHealth();
  const servers = useServers();
  const { state, start, cancel } = useSweep(sweep);
  const recorded = baseline?.kind === 'series' ? baseline.result.table : undefined;
  // Until the learner runs it, the widget shows the recorded reference result.
  const showingRecorded = state.phase === 'idle' && recorded !== undefined;
  const points = showingRecorded ? recorded.points : state.points;
  const table = showingRecorded ? recorded : state.table;

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
      {showingRecorded && baseline ? <BaselineNote text={describeBaseline(baseline)} canRun={!gate} /> : null}

      <ExperimentParams experiment={experiment} servers={known} />

      <ExperimentControls
        runLabel={showingRecorded ? 'Run live' : `Run ${total} benchmark${total > 1 ? 's' : ''}`}
        onRun={() => void start()}
        onCancel={state.phase === 'running' ? () => void cancel() : null}
        blocked={blocked}
        busy={busy}
        gate={gate}
      />
      {state.error ? (
        <p className="experiment__error" role="alert">
          {state.error}
        </p>
      ) : null}

      {showingRecorded || (state.phase !== 'idle' && state.phase !== 'submitting') ? (
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
              traced={isTraced(sweep)}
            />
          </ErrorBoundary>
        </>
      ) : null}
    </section>
  );
}
