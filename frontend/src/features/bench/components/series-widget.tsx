import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ExportAboutContext } from '@/components/export-about';
import { ShareResult } from '@/components/share-result';
import { useHealth } from '@/hooks/use-health';
import { useServers } from '@/hooks/use-servers';
import type { Baseline, SweepRequest } from '@/lib/api-schemas';
import { formatInt } from '@/lib/format';

import { usePresenting, type Presenter } from '../hooks/use-presenting';
import { useRunProvenance } from '../hooks/use-run-provenance';
import { useNextPoint, useSweep, type SweepState } from '../hooks/use-sweep';
import { describeBaseline } from '../lib/baseline';
import { referenceLabel } from '../lib/chart-data';
import type { ExperimentOrigin } from '../lib/experiment-block';
import { runBlockedReason } from '../lib/readiness';
import { resultAbout } from '../lib/result-about';
import { widgetShows } from '../lib/run-state';
import { describeRunningSeries, runningMark, type RunningMark } from '../lib/series';
import { statusWord, variedName, versus } from '../lib/words';

import { BaselineNote } from './baseline-note';
import { ExperimentControls, type RunGate } from './experiment-controls';
import { ExperimentParams } from './experiment-params';
import { PresentControls } from './present-controls';
import { KeptHint } from './run-state-label';
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

/** The header's state: while it runs, how many points are done, what the rest are doing and
 *  where the next point is. */
function stateText(state: SweepState, next: ReturnType<typeof useNextPoint>, sweep: SweepRequest, t: TFunction<'bench'>): string {
  switch (state.phase) {
    case 'running':
      return describeRunningSeries(sweep, state.points, state.table, next, t);
    case 'idle':
      return t('state.idle');
    case 'submitting':
      return t('state.submitting');
    default:
      return statusWord(state.phase, t);
  }
}

/** A series experiment: several servers and/or one parameter over several values, one run
 *  per point through POST /api/sweeps, drawn as one chart with a series per server. */
export function SeriesWidget({ title: given, sweep, origin, baseline, gate, presenter, labHref }: SeriesWidgetProps) {
  const { t, i18n } = useTranslation('bench');
  const health = useHealth();
  const servers = useServers();
  const { state, previous, start, cancel } = useSweep(sweep, origin);
  const next = useNextPoint(state);
  const running: RunningMark | null = next ? runningMark(next.point, next.run) : null;
  const recorded = (baseline?.kind === 'series' ? baseline.result.table : undefined) ?? undefined;
  // The recorded reference until the learner runs it, then a live series drawn over it (the
  // reference dimmer beneath, never instead of it); after a cancel, what was on show before.
  const { kept, showingRecorded, afterCancel } = widgetShows(state.phase, previous, recorded !== undefined);
  const cancelled = state.phase === 'cancelled';
  const shown = kept ?? state;
  const points = showingRecorded && recorded ? recorded.points : shown.points;
  const table = showingRecorded && recorded ? recorded : shown.table;
  const reference = useMemo(
    () =>
      !showingRecorded && recorded && baseline
        ? { label: referenceLabel(baseline.recorded_at, t), points: recorded.points }
        : null,
    [showingRecorded, recorded, baseline, t],
  );

  const blocked =
    sweep.servers
      .map((serverId) => runBlockedReason({ health: health.data, healthError: health.error, servers: servers.data, serverId }, t))
      .find((reason) => reason !== null) ?? null;
  const busy = BUSY.has(state.phase);
  const total = sweep.servers.length * sweep.values.length;
  const runLabel = t('controls.runMany', { count: total, total: formatInt(total) });
  const servered = versus(sweep.servers, t);
  const title = given ?? (sweep.values.length > 1 ? t('series.titleBy', { servers: servered, field: variedName(sweep.vary, t) }) : servered);
  const known = useMemo(() => (servers.data ?? []).filter((s) => sweep.servers.includes(s.id)), [servers.data, sweep.servers]);
  const presenting = usePresenting(presenter, origin ?? null);
  // The series on show has a permalink of its own; the recorded reference has none.
  const shownId = showingRecorded ? null : shown.sweepId;
  const sharedPath = shownId !== null ? `/sweeps/${encodeURIComponent(shownId)}` : null;
  // A recorded reference says where it was measured itself: its runs were on another machine,
  // in another store, and are not asked for here.
  const firstRun = showingRecorded ? null : (points.find((p) => p.status === 'done' && p.run_id != null)?.run_id ?? null);
  const measured = useRunProvenance(firstRun).provenance;
  const provenance = showingRecorded ? baseline?.provenance : measured;
  const about = useMemo(
    () =>
      resultAbout(
        {
          title,
          request: sweep,
          servers: known,
          provenance,
          createdAt: showingRecorded ? baseline?.recorded_at : table?.created_at,
          path: sharedPath,
          legend: reference ? [...sweep.servers, reference.label] : sweep.servers,
        },
        t,
        i18n.resolvedLanguage,
      ),
    [title, sweep, known, provenance, showingRecorded, baseline?.recorded_at, table?.created_at, sharedPath, reference, t, i18n.resolvedLanguage],
  );

  const run = async () => {
    const sweepId = await start();
    if (sweepId !== null) await presenting?.follow({ sweep_id: sweepId });
  };

  return (
    <section className="experiment" aria-label={t('widget.label', { title })} data-testid="series-experiment">
      <header className="experiment__header">
        <div>
          <p className="kicker">{t('series.kicker')}</p>
          <p className="experiment__title">{title}</p>
        </div>
        <div className="series-state">
          <p className="run-state" data-testid="series-state" data-phase={state.phase} role="status" aria-live="polite">
            {showingRecorded && !cancelled ? t('state.reference') : stateText(state, next, sweep, t)}
          </p>
          <KeptHint showing={afterCancel} />
        </div>
      </header>
      {showingRecorded && baseline ? <BaselineNote text={describeBaseline(baseline, t)} runLabel={gate ? null : runLabel} /> : null}

      <ExperimentParams request={sweep} servers={known} />

      <ExperimentControls
        runLabel={runLabel}
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
        <>
          {sharedPath ? <ShareResult to={sharedPath} /> : null}
          <ExportAboutContext value={about}>
            <SeriesFigures
              sweep={sweep}
              points={points}
              table={table}
              reference={reference}
              running={cancelled ? null : running}
              profiles={showingRecorded && baseline?.kind === 'series' ? baseline.result.profiles : null}
            />
          </ExportAboutContext>
        </>
      ) : null}
    </section>
  );
}
