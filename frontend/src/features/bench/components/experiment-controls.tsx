import { useId } from 'react';

interface ExperimentControlsProps {
  runLabel: string;
  onRun: () => void;
  /** Shown as a Cancel button while there is something to cancel. */
  onCancel: (() => void) | null;
  /** Why the Run button is disabled, said next to it; null when it may run. */
  blocked: string | null;
  busy: boolean;
}

/** Run / Cancel for both widgets. A blocked button keeps its reason beside it, linked by
 *  aria-describedby, so no one is left guessing why nothing happens. */
export function ExperimentControls({ runLabel, onRun, onCancel, blocked, busy }: ExperimentControlsProps) {
  const blockedId = useId();
  return (
    <div className="experiment__controls">
      <button
        type="button"
        className="button button--primary"
        onClick={onRun}
        disabled={blocked !== null || busy}
        aria-describedby={blocked ? blockedId : undefined}
      >
        {runLabel}
      </button>
      {onCancel ? (
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
      {blocked ? (
        <p className="experiment__blocked" id={blockedId} data-testid="run-blocked">
          {blocked}
        </p>
      ) : null}
    </div>
  );
}
