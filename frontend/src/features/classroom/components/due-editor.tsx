import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import { browserTimeZone, isoFromInput, toInputValue } from '@/lib/dates';

import { useAssign } from '../hooks/use-assignments';
import type { Assignment } from '../lib/classroom-schemas';

import { DueTimeField } from './due-time-field';

interface DueEditorProps {
  classId: string;
  /** The exercise already assigned, with its due time now. */
  assignment: Assignment;
  /** Done with: saved, or cancelled. */
  onClose: () => void;
}

/** The due time as the picker shows it, in the browser's wall clock; '' for none. */
function inputValue(dueAt: string | null): string {
  return dueAt === null ? '' : toInputValue(new Date(dueAt));
}

/**
 * Changes, or clears, the due time of an exercise already assigned, inline in the list of
 * assigned exercises: the exercise is assigned again with the new time (when it was first
 * assigned stays, and late is judged against the new time). An empty field, or "No due time",
 * sends none. A refusal (a time already past by the server's clock) shows the server's
 * sentence and keeps the form open, to try again.
 */
export function DueEditor({ classId, assignment, onClose }: DueEditorProps) {
  const { t } = useTranslation('classroom');
  const assign = useAssign(classId);
  const [due, setDue] = useState(() => inputValue(assignment.due_at));
  const helpId = useId();
  const { title } = assignment;
  const send = (dueAt: string | null) => {
    // Closes once the list has been read again (the hook waits for it), so the new time shows.
    assign.mutate({ exercise: assignment.exercise, dueAt }, { onSuccess: onClose });
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    send(isoFromInput(due));
  };
  return (
    <form className="due-editor" onSubmit={submit} aria-label={t('assignments.dueFormLabel', { title })} data-testid="due-editor">
      <div className="due-editor__field">
        <DueTimeField
          label={t('assignments.dueField')}
          value={due}
          onChange={setDue}
          helpId={helpId}
          // Opened by a click on "Change due time": the field is what comes next.
          autoFocus
        />
      </div>
      <div className="due-editor__buttons">
        <button
          type="submit"
          className="button button--small button--primary"
          disabled={assign.isPending}
          aria-label={t('assignments.saveDueLabel', { title })}
        >
          {t('assignments.saveDue')}
        </button>
        {assignment.due_at === null ? null : (
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              send(null);
            }}
            disabled={assign.isPending}
            aria-label={t('assignments.clearDueLabel', { title })}
          >
            {t('assignments.clearDue')}
          </button>
        )}
        <button type="button" className="button button--small" onClick={onClose} aria-label={t('assignments.cancelDueLabel', { title })}>
          {t('assignments.cancelDue')}
        </button>
      </div>
      <p className="due-editor__help" id={helpId}>
        {t('assignments.dueHelp', { zone: browserTimeZone() })}
      </p>
      <ActionError error={assign.error} testId="due-error" />
    </form>
  );
}
