import { useMemo } from 'react';

import { useHealth } from '@/hooks/use-health';
import { useServers } from '@/hooks/use-servers';
import type { Baseline, SweepRequest } from '@/lib/api-schemas';
import { formatCount } from '@/lib/format';

import { usePresenting, type Presenter } from '../hooks/use-presenting';
import { useSweep, type SweepState } from '../hooks/use-sweep';
import { describeBaseline } from '../lib/baseline';
import { referenceLabel } from '../lib/chart-data';
import type { ExperimentOrigin } from '../lib/experiment-block';
import { runBlockedReason } from '../lib/readiness';
import { describeSweepProgress, sweepProgress } from '../lib/series';

import { BaselineNote } from './baseline-note';
import { ExperimentControls, type RunGate } from './experiment-controls';
import { ExperimentParams } from './experiment-params';
import { PresentControls } from './present-controls';
import { SeriesFigures } from './series-figures';

import './experiment-widget.css';

interface SeriesWidgetProps {
  /** The block's title (or the lab's); null to name it after its servers. */
  title: string | null;
  /** What Run posts (POST /api/sweeps): a lesson block's as the backend parsed it, or the lab's. */
  sweep: SweepRequest;
  /** The lesson and block key, sent with the series; unknown outside a lesson the server lists. */
  origin?: ExperimentOrigin | undefined;
  /** The recorded reference result: shown until a live run starts, then drawn under it. */
  baseline?: Baseline | undefined;
  /** Set when this browser may not run benchmarks: shown instead of Run. */
  gate?: RunGate | null | undefined;
  /** An instructor's: shows the class this experiment (needs `origin`). */
  presenter?: Presenter | null | undefined;
  /** A lesson's block: the lab with it filled in ("Open in lab"); none in the lab itself. */
  labHref?: string | undefined;
}

const BUSY = new Set(['submitting', 'running']);

/** The header's state: while it runs, how many points are done and what the rest are doing. */
function stateText(state: SweepState, total: number): string {
  if (state.phase !== 'running') return state.phase;
  return describeSweepProgress(sweepProgress(total, state.points, state.table));
}

/** A series experiment: several servers and/or one parameter over several values, one run
 *  per point through POST /api/sweeps, drawn as one chart with a series per server. */
export function SeriesWidget({ title: given, sweep, origin, baseline, gate, presenter, labHref }: SeriesWidgetProps) {
  const health = useHealth();
  const servers = useServers();
  const { state, start, cancel } = useSweep(sweep, origin);
  const recorded = (baseline?.kind === 'series' ? baseline.result.table : undefined) ?? undefined;
  // Until the learner runs it, the widget shows the recorded reference result; a live series
  // is then drawn over it, the reference dimmer beneath, never instead of it.
  const showingRecorded = state.phase === 'idle' && recorded !== undefined;
  const points = showingRecorded ? recorded.points : state.points;
  const table = showingRecorded ? recorded : state.table;
  const reference = useMemo(
    () =>
      !showingRecorded && recorded && baseline
        ? { label: referenceLabel(baseline.recorded_at), points: recorded.points }
        : null,
    [showingRecorded, recorded, baseline],
  );

  const blocked =
    sweep.servers
      .map((serverId) => runBlockedReason({ health: health.data, healthError: health.error, servers: servers.data, serverId }))
      .find((reason) => reason !== null) ?? null;
  const busy = BUSY.has(state.phase);
  const total = sweep.servers.length * sweep.values.length;
  const title = given ?? `${sweep.servers.join(' vs ')}${sweep.values.length > 1 ? ` by ${sweep.vary}` : ''}`;
  const known = (servers.data ?? []).filter((s) => sweep.servers.includes(s.id));
  const presenting = usePresenting(presenter, origin ? { ...origin, title } : null);

  const run = async () => {
    const sweepId = await start();
    if (sweepId !== null) await presenting?.follow({ sweep_id: sweepId });
  };

  return (
    <section className="experiment" aria-label={`Experiment: ${title}`} data-testid="series-experiment">
      <header className="experiment__header">
        <div>
          <p className="experiment__kicker">Experiment · series</p>
          <p className="experiment__title">{title}</p>
        </div>
        <p className="run-state" data-testid="series-state" role="status" aria-live="polite">
          {showingRecorded ? 'reference result' : stateText(state, total)}
        </p>
      </header>
      {showingRecorded && baseline ? <BaselineNote text={describeBaseline(baseline)} canRun={!gate} /> : null}

      <ExperimentParams request={sweep} servers={known} />

      <ExperimentControls
        runLabel={showingRecorded ? 'Run live' : `Run ${formatCount(total, 'benchmark')}`}
        onRun={() => void run()}
        onCancel={state.phase === 'running' ? () => void cancel() : null}
        blocked={blocked}
        busy={busy}
        gate={gate}
        labHref={labHref}
      >
        {presenting ? (
          <PresentControls
            presenting={presenting}
            onPresent={() => void presenting.present(state.sweepId !== null ? { sweep_id: state.sweepId } : {})}
          />
        ) : null}
      </ExperimentControls>
      {state.error ? (
        <p className="experiment__error" role="alert">
          {state.error}
        </p>
      ) : null}

      {showingRecorded || (state.phase !== 'idle' && state.phase !== 'submitting') ? (
        <SeriesFigures sweep={sweep} points={points} table={table} reference={reference} />
      ) : null}
    </section>
  );
}
