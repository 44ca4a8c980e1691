import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useThrottledReducer } from '@/hooks/use-throttled-reducer';
import type { RunEventFrame } from '@/lib/api-schemas';

import { RENDER_INTERVAL_MS } from '../hooks/use-run';
import { initialRunState, runReducer, type RunState } from '../lib/run-state';

import { RunFigures } from './run-figures';
import { RunStateLabel } from './run-state-label';

import './experiment-widget.css';

interface PresentedRunProps {
  runId: string;
  /** The run's events so far, in order, as the class stream relays them (`run_event`). */
  frames: RunEventFrame[];
}

/**
 * The run an instructor presents, as a class follows it: the frames go through the same state
 * machine as the experiment widget's own run, and draw the same charts and final figures, in
 * one column at most 420 px wide.
 */
export function PresentedRun({ runId, frames }: PresentedRunProps) {
  // Another run is another state from the start.
  return <PresentedRunFigures key={runId} runId={runId} frames={frames} />;
}

function PresentedRunFigures({ runId, frames }: PresentedRunProps) {
  const { t } = useTranslation('bench');
  const start: RunState = { ...initialRunState, runId, phase: 'queued' };
  const [state, dispatch, getState] = useThrottledReducer(runReducer, start, RENDER_INTERVAL_MS);

  // Only frames past the last one applied: a relay that starts over (the class stream replays
  // a presented run from its first event on reconnect) changes nothing. Renders stay ≤ 10 Hz.
  useEffect(() => {
    for (const frame of frames) {
      if (frame.seq > getState().lastSeq) dispatch({ type: 'event', frame });
    }
  }, [frames, dispatch, getState]);

  return (
    <section className="experiment presented" aria-label={t('presented.run')} data-testid="presented-run">
      <header className="experiment__header">
        <p className="kicker">{state.server ? t('presented.runOf', { server: state.server }) : t('presented.runKicker')}</p>
        <RunStateLabel state={state} />
      </header>
      <RunFigures state={state} plannedS={0} />
    </section>
  );
}
