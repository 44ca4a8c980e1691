import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ActionError } from '@/components/action-error';

import { useUnassign } from '../hooks/use-assignments';
import { useNow } from '../hooks/use-now';
import type { Assignment } from '../lib/classroom-schemas';
import { dueText } from '../lib/gradebook-text';

/** "was due" turns true within the minute. */
const CLOCK_TICK_MS = 30_000;

interface AssignmentListProps {
  classId: string;
  assignments: Assignment[];
  /** The class has not ended: an exercise can be taken off the list. */
  live: boolean;
}

/** The exercises assigned to the class, in the order assigned: each links to the exercise, says
 *  when it is due (in the reader's time zone) and can be taken off the list (its answers stay). */
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
            {live ? (
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
            ) : null}
          </li>
        ))}
      </ul>
      <ActionError error={unassign.error} />
    </>
  );
}
