import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ActionError } from '@/components/action-error';

import { useUnassign } from '../hooks/use-assignments';
import { useNow } from '../hooks/use-now';
import type { Assignment } from '../lib/classroom-schemas';
import { dueText } from '../lib/gradebook-text';

import { DueEditor } from './due-editor';

/** "was due" turns true within the minute. */
const CLOCK_TICK_MS = 30_000;

interface AssignmentListProps {
  classId: string;
  assignments: Assignment[];
  /** The class has not ended: an exercise's due time can change, and it can be taken off the list. */
  live: boolean;
}

interface AssignmentActionsProps {
  classId: string;
  assignment: Assignment;
  unassign: ReturnType<typeof useUnassign>;
}

/** Change the due time (in a form opened below) or take the exercise off the list. */
function AssignmentActions({ classId, assignment, unassign }: AssignmentActionsProps) {
  const { t } = useTranslation('classroom');
  const [editing, setEditing] = useState(false);
  const changeButton = useRef<HTMLButtonElement>(null);
  const editorId = useId();
  const close = () => {
    setEditing(false);
    // The form and its focused field go: focus goes back to the button that opened it.
    changeButton.current?.focus();
  };
  return (
    <>
      <span className="assignment-list__actions">
        <button
          ref={changeButton}
          type="button"
          className="button button--small"
          onClick={() => {
            setEditing(!editing);
          }}
          aria-expanded={editing}
          aria-controls={editing ? editorId : undefined}
          aria-label={t('assignments.changeDueLabel', { title: assignment.title })}
        >
          {t('assignments.changeDue')}
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            unassign.mutate(assignment.exercise);
          }}
          disabled={unassign.isPending && unassign.variables === assignment.exercise}
          aria-label={t('assignments.removeLabel', { title: assignment.title })}
        >
          {t('assignments.remove')}
        </button>
      </span>
      {editing ? (
        <div id={editorId} className="assignment-list__editor">
          <DueEditor classId={classId} assignment={assignment} onClose={close} />
        </div>
      ) : null}
    </>
  );
}

/** The exercises assigned to the class, in the order assigned: each links to the exercise, says
 *  when it is due (in the reader's time zone), and while the class is live its due time can
 *  change and it can be taken off the list (its answers stay). */
export function AssignmentList({ classId, assignments, live }: AssignmentListProps) {
  const { t, i18n } = useTranslation('classroom');
  const now = useNow(CLOCK_TICK_MS);
  const unassign = useUnassign(classId);
  if (assignments.length === 0) return <p data-testid="assignments-empty">{t('assignments.none')}</p>;
  return (
    <>
      <ul className="assignment-list" aria-label={t('assignments.listLabel')} data-testid="assignment-list">
        {assignments.map((assignment) => (
          <li key={assignment.exercise} className="assignment-list__item" data-testid="assignment" data-exercise={assignment.exercise}>
            <Link to={`/exercises/${encodeURIComponent(assignment.exercise)}`}>{assignment.title}</Link>
            <span className="assignment-list__due" data-testid="assignment-due">
              {assignment.due_at === null ? (
                dueText(null, now, i18n.resolvedLanguage, t)
              ) : (
                <time dateTime={assignment.due_at}>{dueText(assignment.due_at, now, i18n.resolvedLanguage, t)}</time>
              )}
            </span>
            {live ? <AssignmentActions classId={classId} assignment={assignment} unassign={unassign} /> : null}
          </li>
        ))}
      </ul>
      <ActionError error={unassign.error} />
    </>
  );
}
