import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';

import { useAssignments } from '../hooks/use-assignments';
import { useNow } from '../hooks/use-now';
import type { Assignment } from '../lib/classroom-schemas';
import { dueText, emptyCell, isOverdue } from '../lib/gradebook-text';

import { GradeMark } from './grade-mark';

import './classroom.css';

/** "overdue" turns true within the minute. */
const CLOCK_TICK_MS = 30_000;

/**
 * A student's home page: the exercises their instructor assigned to the class, each with its
 * due time, where the student stands with it (their own answers: passed, failed, being judged,
 * not tried, and how many) and "overdue" once the due time has passed without a passing answer.
 * Nothing at all while none is assigned.
 */
export function AssignedExercises({ classId }: { classId: string }) {
  const { t } = useTranslation('classroom');
  const assignments = useAssignments(classId);
  const now = useNow(CLOCK_TICK_MS);
  if (assignments.isPending) return <Loading label={t('assigned.loading')} />;
  if (assignments.isError) return <ErrorMessage title={t('assigned.loadError')} error={assignments.error} />;
  if (assignments.data.length === 0) return null;
  const passed = assignments.data.filter((a) => a.mine?.status === 'passed').length;
  return (
    <section className="callout assigned" aria-labelledby="assigned-heading" data-testid="assigned-exercises">
      <h2 id="assigned-heading">{t('assigned.heading')}</h2>
      <p className="assigned__count" data-testid="assigned-count">
        {t('assigned.passedCount', { passed, total: assignments.data.length })}
      </p>
      <ul className="assigned__list">
        {assignments.data.map((assignment) => (
          <AssignedItem key={assignment.exercise} assignment={assignment} now={now} />
        ))}
      </ul>
    </section>
  );
}

function AssignedItem({ assignment, now }: { assignment: Assignment; now: number }) {
  const { t, i18n } = useTranslation('classroom');
  const mine = assignment.mine ?? emptyCell(assignment.exercise);
  const overdue = isOverdue(assignment, now);
  return (
    <li className="assigned__item" data-testid="assigned-exercise" data-exercise={assignment.exercise} data-status={mine.status}>
      <Link className="assigned__title" to={`/exercises/${encodeURIComponent(assignment.exercise)}`}>
        {assignment.title}
      </Link>
      <span className="assigned__due" data-testid="assigned-due">
        {assignment.due_at === null ? (
          dueText(null, now, i18n.resolvedLanguage, t)
        ) : (
          <time dateTime={assignment.due_at}>{dueText(assignment.due_at, now, i18n.resolvedLanguage, t)}</time>
        )}
      </span>
      <span className="assigned__status">
        <span className="visually-hidden">{t('assigned.yourStatus')}</span>
        <GradeMark status={mine.status} />
        {mine.attempts > 0 ? <span data-testid="assigned-attempts"> · {t('grade.attempts', { count: mine.attempts })}</span> : null}
      </span>
      {overdue ? (
        <span className="badge badge--warn" data-testid="assigned-overdue">
          {t('grade.overdue')}
        </span>
      ) : null}
      {mine.late ? (
        <span className="badge badge--warn" title={t('grade.lateTitle')}>
          {t('grade.late')}
        </span>
      ) : null}
    </li>
  );
}
