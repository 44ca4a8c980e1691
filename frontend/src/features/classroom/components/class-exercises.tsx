import { Trans, useTranslation } from 'react-i18next';

import { ErrorMessage, Loading } from '@/components/loading';
import type { LessonSummary } from '@/lib/api-schemas';

import { gradebookCsvUrl } from '../api/classroom';
import { useExerciseList, useGradebook } from '../hooks/use-assignments';

import { AssignmentForm } from './assignment-form';
import { AssignmentList } from './assignment-list';
import { GradebookTable } from './gradebook-table';

interface ClassExercisesProps {
  classId: string;
  /** The class has not ended: exercises can be assigned and taken off, and the gradebook is
   *  asked for again every few seconds. */
  live: boolean;
  /** The asker may assign and unassign (not a teaching assistant). */
  canChange?: boolean;
  /** The course's lessons (for the form's groups); undefined while they load. */
  lessons: LessonSummary[] | undefined;
}

/**
 * The class page's Exercises: what is assigned (and when it is due), assigning another, and
 * the gradebook (every student × every assignment) with its CSV. One answer, the gradebook's,
 * carries both the assignments and the cells.
 */
export function ClassExercises({ classId, live, lessons, canChange = true }: ClassExercisesProps) {
  const { t } = useTranslation('classroom');
  const book = useGradebook(classId, live);
  // A teaching assistant reads the gradebook; the class's teachers set what is assigned.
  const editable = live && canChange;
  const exercises = useExerciseList();
  if (book.isPending) return <Loading label={t('assignments.loading')} />;
  if (book.isError) return <ErrorMessage title={t('assignments.loadError')} error={book.error} />;
  const assigned = new Set(book.data.assignments.map((a) => a.exercise));
  return (
    <>
      <AssignmentList classId={classId} assignments={book.data.assignments} live={editable} />
      {!editable ? null : exercises.isError ? (
        <p className="class-table__note" role="alert">
          {t('assign.exercisesError', { detail: exercises.error.message })}
        </p>
      ) : exercises.data ? (
        <AssignmentForm classId={classId} exercises={exercises.data.filter((e) => !assigned.has(e.slug))} lessons={lessons} />
      ) : null}
      {book.data.assignments.length === 0 ? null : (
        <>
          <GradebookTable gradebook={book.data} />
          <p>
            <Trans
              t={t}
              i18nKey="assignments.exportCsv"
              components={{
                anchor: <a className="button button--small" href={gradebookCsvUrl(classId)} download data-testid="gradebook-export-csv" />,
              }}
            />
          </p>
        </>
      )}
    </>
  );
}
