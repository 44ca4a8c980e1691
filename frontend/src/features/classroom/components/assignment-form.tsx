import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import type { ExerciseSummary } from '@/hooks/use-exercises';
import type { LessonSummary } from '@/lib/api-schemas';
import { browserTimeZone, isoFromInput } from '@/lib/dates';

import { useAssign } from '../hooks/use-assignments';

import { DueTimeField } from './due-time-field';

interface AssignmentFormProps {
  classId: string;
  /** The exercises not assigned yet, as GET /api/exercises lists them. */
  exercises: ExerciseSummary[];
  /** The course's lessons, to group the exercises under their titles; undefined while they load. */
  lessons: LessonSummary[] | undefined;
}

/** The exercises under their lessons, in the order the API lists them. */
function byLesson(exercises: ExerciseSummary[]): [string, ExerciseSummary[]][] {
  const groups = new Map<string, ExerciseSummary[]>();
  for (const exercise of exercises) groups.set(exercise.lesson, [...(groups.get(exercise.lesson) ?? []), exercise]);
  return [...groups];
}

/**
 * Assigns one more exercise to the class, with an optional due time: the picker's wall-clock
 * time sent as ISO 8601 with the browser's offset. A refusal (a due time already past, an
 * exercise gone) shows the server's sentence.
 */
export function AssignmentForm({ classId, exercises, lessons }: AssignmentFormProps) {
  const { t } = useTranslation('classroom');
  const assign = useAssign(classId);
  const [exercise, setExercise] = useState('');
  const [due, setDue] = useState('');
  const selectId = useId();
  const helpId = useId();
  if (exercises.length === 0) return <p data-testid="all-assigned">{t('assign.allAssigned')}</p>;
  const titles = new Map((lessons ?? []).map((l) => [l.slug, l.title]));
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    assign.mutate(
      { exercise, dueAt: isoFromInput(due) },
      {
        onSuccess: () => {
          setExercise('');
          setDue('');
        },
      },
    );
  };
  return (
    <form className="assignment-form" onSubmit={submit} aria-label={t('assign.label')} data-testid="assignment-form">
      <div className="assignment-form__field">
        <label htmlFor={selectId}>{t('assign.exercise')}</label>
        <select
          id={selectId}
          name="exercise"
          required
          value={exercise}
          onChange={(e) => {
            setExercise(e.target.value);
          }}
        >
          <option value="" disabled>
            {t('assign.choose')}
          </option>
          {byLesson(exercises).map(([lesson, group]) => (
            <optgroup key={lesson} label={titles.get(lesson) ?? lesson}>
              {group.map((e) => (
                <option key={e.slug} value={e.slug}>
                  {e.title}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <div className="assignment-form__field">
        <DueTimeField label={t('assign.dueAt')} value={due} onChange={setDue} helpId={helpId} />
      </div>
      <button type="submit" className="button button--primary" disabled={assign.isPending || exercise === ''}>
        {assign.isPending ? t('assign.assigning') : t('assign.submit')}
      </button>
      <p className="assignment-form__help" id={helpId}>
        {t('assign.dueHelp', { zone: browserTimeZone() })}
      </p>
      <ActionError error={assign.error} testId="assign-error" />
    </form>
  );
}
