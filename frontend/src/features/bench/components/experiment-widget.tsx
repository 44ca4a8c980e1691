import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ExportAboutContext } from '@/components/export-about';
import { ShareResult } from '@/components/share-result';
import { useHealth } from '@/hooks/use-health';
import { useServers } from '@/hooks/use-servers';
import type { Baseline, RunRequest } from '@/lib/api-schemas';

import { usePresenting, type Presenter } from '../hooks/use-presenting';
import { useRun } from '../hooks/use-run';
import { describeBaseline, replayRun } from '../lib/baseline';
import { referenceLabel } from '../lib/chart-data';
import type { ExperimentOrigin } from '../lib/experiment-block';
import { runBlockedReason } from '../lib/readiness';
import { resultAbout } from '../lib/result-about';
import { isBusy, isCancellable, widgetShows } from '../lib/run-state';

import { BaselineNote } from './baseline-note';
import { ExperimentControls, type RunGate } from './experiment-controls';
import { ExperimentParams } from './experiment-params';
import { PresentControls } from './present-controls';
import { RunFigures } from './run-figures';
import { CancelledLabel, RunStateLabel } from './run-state-label';

import './experiment-widget.css';

interface ExperimentWidgetProps {
  /** The block's title (or the lab's); null to name it after its server. */
  title: string | null;
  /** What Run posts (POST /api/runs): a lesson block's as the backend parsed it, or the lab's. */
  request: RunRequest;
  /** Where the widget remembers its last run, so a reload follows it again. */
  runKey: string;
  /** The lesson and block key, sent with each run; unknown outside a lesson the server lists. */
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

/** The Run widget: parameters, Run/Cancel, live state, four charts and the final figures. */
export function ExperimentWidget({ title: given, request, runKey, origin, baseline, gate, presenter, labHref }: ExperimentWidgetProps) {
  const { t, i18n } = useTranslation('bench');
  const health = useHealth();
  const servers = useServers();
  const { state: live, previous, start, cancel } = useRun(runKey, request, origin);
  const recorded = useMemo(() => (baseline?.kind === 'run' ? replayRun(baseline) : null), [baseline]);
  // The recorded reference until the learner runs it, then a live run drawn over it (the
  // reference dimmer beneath, never instead of it); after a cancel, what was on show before.
  const { kept, showingRecorded, afterCancel } = widgetShows(live.phase, previous, recorded !== null);
  const cancelled = live.phase === 'cancelled';
  const state = showingRecorded && recorded ? recorded : (kept ?? live);
  const reference = useMemo(
    () =>
      !showingRecorded && recorded !== null && baseline ? { state: recorded, label: referenceLabel(baseline.recorded_at, t) } : null,
    [showingRecorded, recorded, baseline, t],
  );

  const serverId = request.server;
  const server = servers.data?.find((s) => s.id === serverId);
  const title = given ?? t('widget.benchmarkTitle', { server: server?.title ?? serverId });
  const presenting = usePresenting(presenter, origin ?? null);
  const blocked = runBlockedReason(
    {
      health: health.data,
      healthError: health.error,
      servers: servers.data,
      serverId,
    },
    t,
  );
  const planned = request.duration_s !== undefined ? request.duration_s + (request.warmup_s ?? 0) : 0;
  // The run on show has a permalink of its own; the recorded reference has none.
  const sharedPath = !showingRecorded && state.runId !== null ? `/runs/${encodeURIComponent(state.runId)}` : null;
  const about = useMemo(
    () =>
      resultAbout(
        {
          title,
          request,
          servers: server ? [server] : [],
          provenance: state.result?.provenance,
          createdAt: showingRecorded ? baseline?.recorded_at : null,
          path: sharedPath,
          legend: reference ? [t('chart.live'), reference.label] : [serverId],
          result: state.result,
        },
        t,
        i18n.resolvedLanguage,
      ),
    [title, request, server, state.result, showingRecorded, baseline?.recorded_at, sharedPath, reference, serverId, t, i18n.resolvedLanguage],
  );

  const run = async () => {
    const runId = await start();
    if (runId !== null) await presenting?.follow({ run_id: runId });
  };

  return (
    <section className="experiment" aria-label={t('widget.label', { title: given ?? serverId })}>
      <header className="experiment__header">
        <div>
          <p className="kicker">{t('widget.kicker')}</p>
          <p className="experiment__title">{title}</p>
        </div>
        {cancelled ? (
          <CancelledLabel state={live} showing={afterCancel} />
        ) : showingRecorded ? (
          <p className="run-state">{t('state.reference')}</p>
        ) : (
          <RunStateLabel state={state} />
        )}
      </header>
      {showingRecorded && baseline ? (
        <BaselineNote text={describeBaseline(baseline, t)} runLabel={gate ? null : t('controls.run')} />
      ) : null}

      <ExperimentParams request={request} servers={server ? [server] : []} />

      <ExperimentControls
        runLabel={t('controls.run')}
        onRun={() => void run()}
        onCancel={isCancellable(state) ? () => void cancel() : null}
        blocked={blocked}
        busy={isBusy(state.phase)}
        gate={gate}
        labHref={labHref}
      >
        {presenting ? (
          <PresentControls
            presenting={presenting}
            onPresent={() => void presenting.present(live.runId !== null ? { run_id: live.runId } : {})}
          />
        ) : null}
      </ExperimentControls>

      {sharedPath ? <ShareResult to={sharedPath} /> : null}
      <ExportAboutContext value={about}>
        <RunFigures state={state} plannedS={planned} warmupS={request.warmup_s} reference={reference} />
      </ExportAboutContext>
    </section>
  );
}
