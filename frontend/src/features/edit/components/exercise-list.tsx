import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { exerciseListQuery } from '@/hooks/use-exercises';
import { lessonListQuery } from '@/hooks/use-lesson';
import { usePageTitle } from '@/hooks/use-page-title';

import { listVariants, VARIANTS_KEY } from '../api/variants';
import { EXERCISE_STATUS_WORDS, exerciseStatus, groupByLesson, lessonName, type ExerciseStatus } from '../lib/exercises';

import './edit.css';
import './exercises.css';

function StatusBadge({ status }: { status: ExerciseStatus }) {
  return (
    <span className={`badge exercise-status exercise-status--${status}`} data-testid="exercise-status">
      <span className="visually-hidden">Your status: </span>
      {EXERCISE_STATUS_WORDS[status]}
    </span>
  );
}

/**
 * /#/exercises: every exercise under its lesson, each with what it asks, the server it edits
 * and where this browser's learner stands with it (from their own answers).
 */
export function ExerciseIndex() {
  usePageTitle('Exercises');
  const exercises = useQuery(exerciseListQuery());
  const lessons = useQuery(lessonListQuery());
  const variants = useQuery({ queryKey: VARIANTS_KEY, queryFn: ({ signal }) => listVariants(signal) });
  const groups = groupByLesson(exercises.data ?? [], lessons.data ?? []);

  return (
    <div className="edit page exercises" data-testid="exercise-index">
      <h1>Exercises</h1>
      <p className="edit__intro">
        Each exercise gives you a server’s model file with something to change, builds your answer in a sandbox, checks
        it answers correctly, then runs it and judges what the run measured. Hints come one at a time; a solution only
        when you ask for it.
      </p>
      {variants.isError ? (
        <p className="edit__problem" role="alert">
          Your answers could not be loaded, so whether you tried each exercise is not shown: {variants.error.message}
        </p>
      ) : null}
      {exercises.isPending ? (
        <Loading label="Loading the exercises…" />
      ) : exercises.isError ? (
        <ErrorMessage title="The exercises could not be loaded" error={exercises.error} />
      ) : groups.length === 0 ? (
        <p>The course has no exercises yet.</p>
      ) : (
        groups.map((group) => (
          <section key={group.lesson} className="exercise-group" aria-labelledby={`exercises-${group.lesson}`}>
            <h2 id={`exercises-${group.lesson}`}>
              <Link to={`/lessons/${encodeURIComponent(group.lesson)}`}>{lessonName(group)}</Link>
            </h2>
            <ul className="exercise-list">
              {group.exercises.map((exercise) => {
                const status = variants.data ? exerciseStatus(variants.data, exercise.slug) : null;
                return (
                  <li key={exercise.slug} className="exercise-card" data-testid="exercise-item" data-status={status ?? undefined}>
                    <h3>
                      <Link to={`/exercises/${encodeURIComponent(exercise.slug)}`}>{exercise.title}</Link>
                    </h3>
                    <p>{exercise.summary}</p>
                    <p className="exercise-card__meta">
                      <span className="edit__muted">
                        Edits <code>{exercise.server}</code>
                      </span>
                      {status ? <StatusBadge status={status} /> : null}
                    </p>
                  </li>
                );
              })}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
