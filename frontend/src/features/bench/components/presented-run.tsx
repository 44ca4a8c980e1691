import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ExportAboutContext } from '@/components/export-about';
import { ShareResult } from '@/components/share-result';
import { useServers } from '@/hooks/use-servers';
import { useThrottledReducer } from '@/hooks/use-throttled-reducer';
import type { RunEventFrame } from '@/lib/api-schemas';
import { getRun } from '@/lib/runs-api';

import { RENDER_INTERVAL_MS } from '../hooks/use-run';
import { resultAbout } from '../lib/result-about';
import { initialRunState, runReducer, type RunState } from '../lib/run-state';

import { RunFigures } from './run-figures';
import { RunStateLabel } from './run-state-label';

import './experiment-widget.css';

interface PresentedRunProps {
  runId: string;
  /** The run's events so far, in order, as the class stream relays them (`run_event`). */
  frames: RunEventFrame[];
  /** What it is presented as (the block's title, or the instructor's): its exports' title. */
  title: string;
}

/**
 * The run an instructor presents, as a class follows it: the frames go through the same state
 * machine as the experiment widget's own run, and draw the same charts and final figures, in
 * one column at most 420 px wide. Shared by its permalink, and its exports say what it is, as
 * the widget's do.
 */
export function PresentedRun(props: PresentedRunProps) {
  // Another run is another state from the start.
  return <PresentedRunFigures key={props.runId} {...props} />;
}

function PresentedRunFigures({ runId, frames, title }: PresentedRunProps) {
  const { t, i18n } = useTranslation('bench');
  const start: RunState = { ...initialRunState, runId, phase: 'queued' };
  const [state, dispatch, getState] = useThrottledReducer(runReducer, start, RENDER_INTERVAL_MS);

  // Only frames past the last one applied: a relay that starts over (the class stream replays
  // a presented run from its first event on reconnect) changes nothing. Renders stay ≤ 10 Hz.
  useEffect(() => {
    for (const frame of frames) {
      if (frame.seq > getState().lastSeq) dispatch({ type: 'event', frame });
    }
  }, [frames, dispatch, getState]);

  // The frames draw the run; what it was asked and when is its record's, asked once (a class
  // may see the runs its instructor presents).
  const { data: run } = useQuery({
    queryKey: ['runs', runId, 'presented'],
    queryFn: ({ signal }) => getRun(runId, signal),
    staleTime: Infinity,
  });
  const catalog = useServers().data;
  const path = `/runs/${encodeURIComponent(runId)}`;
  const about = useMemo(() => {
    if (!run) return null;
    const servers = (catalog ?? []).filter((s) => s.id === run.server);
    const facts = { title, request: run.request, servers, provenance: state.result?.provenance, createdAt: run.created_at, path, legend: [run.server], result: state.result };
    return resultAbout(facts, t, i18n.resolvedLanguage);
  }, [run, catalog, title, state.result, path, t, i18n.resolvedLanguage]);

  return (
    <section className="experiment presented" aria-label={t('presented.run')} data-testid="presented-run">
      <header className="experiment__header">
        <p className="kicker">{state.server ? t('presented.runOf', { server: state.server }) : t('presented.runKicker')}</p>
        <RunStateLabel state={state} />
      </header>
      <ShareResult to={path} />
      <ExportAboutContext value={about}>
        <RunFigures state={state} plannedS={0} />
      </ExportAboutContext>
    </section>
  );
}
