import { useStopPresenting } from '../hooks/use-classroom';
import { presentationText } from '../lib/class-text';
import type { Presentation } from '../lib/classroom-schemas';

import { ActionError } from './action-error';

/** The instructor's bar: what is presented to the class, and Stop presenting. */
export function PresentationBar({ classId, presentation }: { classId: string; presentation: Presentation | null }) {
  const stop = useStopPresenting(classId);
  if (!presentation) {
    return (
      <p className="presentation-bar presentation-bar--idle" data-testid="presentation-bar">
        Nothing is presented. Spotlight a student’s result on the board to show it on every screen.
      </p>
    );
  }
  return (
    <div className="presentation-bar" data-testid="presentation-bar">
      <p className="presentation-bar__what">
        <strong>Presenting:</strong> <span data-testid="presentation-what">{presentationText(presentation)}</span>
      </p>
      <button
        type="button"
        className="button"
        onClick={() => {
          stop.mutate();
        }}
        disabled={stop.isPending}
      >
        Stop presenting
      </button>
      <ActionError error={stop.error} />
    </div>
  );
}
