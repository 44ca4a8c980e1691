import { usePauseClass, useResumeClass } from '../hooks/use-classroom';

import { ActionError } from './action-error';

/**
 * Holds or releases the class's waiting runs, e.g. while the instructor explains a result
 * everyone should look at. A running run finishes either way; the sentence says which state
 * the class is in, not only the button.
 */
export function PauseToggle({ classId, paused }: { classId: string; paused: boolean }) {
  const pause = usePauseClass(classId);
  const resume = useResumeClass(classId);
  const busy = pause.isPending || resume.isPending;
  return (
    <div className="class-page__toolbar">
      <p className={`class-note${paused ? ' class-note--paused' : ''}`} role="status" data-testid="pause-state">
        {paused
          ? 'Runs are paused: waiting runs stay queued until you resume.'
          : 'Runs are running: each starts when its turn comes.'}
      </p>
      <button
        type="button"
        className={`button${paused ? ' button--primary' : ''}`}
        onClick={() => {
          if (paused) resume.mutate();
          else pause.mutate();
        }}
        disabled={busy}
      >
        {paused ? 'Resume runs' : 'Pause runs'}
      </button>
      <ActionError error={pause.error ?? resume.error} />
    </div>
  );
}
