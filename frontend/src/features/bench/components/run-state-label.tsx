import { useTranslation } from 'react-i18next';

import { ON_MEASURED_MACHINE, runStateLabel, type KeptAfterCancel, type RunState } from '../lib/run-state';

const TONE: Record<RunState['phase'], string> = {
  idle: 'neutral',
  submitting: 'busy',
  queued: 'busy',
  starting: 'busy',
  warmup: 'busy',
  measure: 'busy',
  done: 'ok',
  failed: 'bad',
  cancelled: 'neutral',
};

/** A cancelled run's label, saying what the widget went back to showing: the learner's
 *  previous run, the recorded reference, or nothing. */
export function CancelledLabel({ state, showing }: { state: RunState; showing: KeptAfterCancel }) {
  const { t } = useTranslation('bench');
  return (
    <div className="run-state">
      <span className="run-state__label run-state__label--neutral" data-testid="run-state" data-phase="cancelled" role="status" aria-live="polite">
        {runStateLabel(state, t)}
      </span>
      <KeptHint showing={showing} />
    </div>
  );
}

/** Beside "cancelled": what the widget went back to showing (nothing when nothing was). */
export function KeptHint({ showing }: { showing: KeptAfterCancel }) {
  const { t } = useTranslation('bench');
  if (showing === null) return null;
  return (
    <span className="run-state__hint" data-testid="run-kept">
      {t(showing === 'previous' ? 'state.showingPrevious' : 'state.showingReference')}
    </span>
  );
}

export function RunStateLabel({ state }: { state: RunState }) {
  const { t } = useTranslation('bench');
  const reconnecting = state.connection === 'reconnecting';
  // Said while it holds: the page holds its new figures so as not to disturb the run it shows,
  // when it runs on the machine that run is measured on.
  const quiet = ON_MEASURED_MACHINE && (state.phase === 'warmup' || state.phase === 'measure');
  return (
    <div className="run-state">
      <span
        className={`run-state__label run-state__label--${TONE[state.phase]}${quiet ? ' run-state__label--still' : ''}`}
        data-testid="run-state"
        data-phase={state.phase}
        role="status"
        aria-live="polite"
      >
        {runStateLabel(state, t)}
      </span>
      {reconnecting ? <span className="run-state__hint">{t('state.reconnecting')}</span> : null}
      {quiet && !reconnecting ? (
        <span className="run-state__hint" data-testid="run-quiet-drawing">
          {t('state.quietDrawing')}
        </span>
      ) : null}
    </div>
  );
}
