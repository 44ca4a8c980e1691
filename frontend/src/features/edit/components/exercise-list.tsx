import { useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { exerciseListQuery } from '@/hooks/use-exercises';
import { useLanguage } from '@/hooks/use-language';
import { lessonListQuery } from '@/hooks/use-lesson';
import { usePageTitle } from '@/hooks/use-page-title';

import { listVariants, VARIANTS_KEY } from '../api/variants';
import { exerciseStatus, groupByLesson, lessonName, statusWord, type ExerciseStatus } from '../lib/exercises';

import './edit.css';
import './exercises.css';

function StatusBadge({ status }: { status: ExerciseStatus }) {
  const { t } = useTranslation('edit');
  return (
    <span className={`badge exercise-status exercise-status--${status}`} data-testid="exercise-status">
      <span className="visually-hidden">{t('exercises.yourStatus')}</span>
      {statusWord(status, t)}
    </span>
  );
}

/**
 * /#/exercises: every exercise under its lesson, each with what it asks, the server it edits
 * and where this browser's learner stands with it (from their own answers).
 */
export function ExerciseIndex() {
  const { t } = useTranslation('edit');
  usePageTitle(t('exercises.title'));
  const exercises = useQuery(exerciseListQuery(useLanguage()));
  const lessons = useQuery(lessonListQuery(useLanguage()));
  const variants = useQuery({ queryKey: VARIANTS_KEY, queryFn: ({ signal }) => listVariants(signal) });
  const groups = groupByLesson(exercises.data ?? [], lessons.data ?? []);

  return (
    <div className="edit page exercises" data-testid="exercise-index">
      <h1>{t('exercises.title')}</h1>
      <p className="edit__intro">{t('exercises.intro')}</p>
      {variants.isError ? (
        <p className="edit__problem" role="alert">
          {t('exercises.answersError', { detail: variants.error.message })}
        </p>
      ) : null}
      {exercises.isPending ? (
        <Loading label={t('exercises.loading')} />
      ) : exercises.isError ? (
        <ErrorMessage title={t('exercises.loadError')} error={exercises.error} />
      ) : groups.length === 0 ? (
        <p>{t('exercises.none')}</p>
      ) : (
        groups.map((group) => (
          <section key={group.lesson} className="exercise-group" aria-labelledby={`exercises-${group.lesson}`}>
            <h2 id={`exercises-${group.lesson}`}>
              <Link to={`/lessons/${encodeURIComponent(group.lesson)}`}>{lessonName(group, t)}</Link>
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
                        <Trans t={t} i18nKey="exercises.edits" values={{ server: exercise.server }} components={{ code: <code /> }} />
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
