import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * Why this browser may not start runs at all, said where the Run button would be, as a link
 * to the page that fixes it (e.g. "Join your class to run benchmarks" → /join). The app
 * decides it; the bench feature only shows it.
 */
export interface RunGate {
  label: string;
  /** A route path, e.g. `/join`. */
  to: string;
}

interface ExperimentControlsProps {
  runLabel: string;
  onRun: () => void;
  /** Shown as a Cancel button while there is something to cancel. */
  onCancel: (() => void) | null;
  /** Why the Run button is disabled, said next to it; null when it may run. */
  blocked: string | null;
  busy: boolean;
  /** When set, replaces Run and Cancel: this browser may not run benchmarks yet. */
  gate?: RunGate | null | undefined;
  /** A lesson's block: the lab's address with it filled in, offered as "Open in lab". */
  labHref?: string | undefined;
  /** More buttons after Run and Cancel (an instructor's Present). */
  children?: ReactNode;
}

/** Run / Cancel for both widgets. A blocked button keeps its reason beside it, linked by
 *  aria-describedby, so no one is left guessing why nothing happens. */
export function ExperimentControls({ runLabel, onRun, onCancel, blocked, busy, gate, labHref, children }: ExperimentControlsProps) {
  const { t } = useTranslation('bench');
  const blockedId = useId();
  if (gate) {
    return (
      <div className="experiment__controls">
        <p className="experiment__blocked" data-testid="run-gate">
          <Link to={gate.to}>{gate.label}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="experiment__controls">
      <button
        type="button"
        className="button button--primary"
        data-testid="run-button"
        onClick={onRun}
        disabled={blocked !== null || busy}
        aria-describedby={blocked ? blockedId : undefined}
      >
        {runLabel}
      </button>
      {onCancel ? (
        <button type="button" className="button" onClick={onCancel}>
          {t('controls.cancel')}
        </button>
      ) : null}
      {children}
      {labHref ? (
        <Link to={labHref} className="button" data-testid="open-in-lab">
          {t('controls.openInLab')}
        </Link>
      ) : null}
      {blocked ? (
        <p className="experiment__blocked" id={blockedId} data-testid="run-blocked">
          {blocked}
        </p>
      ) : null}
    </div>
  );
}
