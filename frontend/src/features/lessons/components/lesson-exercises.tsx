import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { exerciseListQuery } from '@/hooks/use-exercises';
import { useLanguage } from '@/hooks/use-language';

/**
 * After a lesson's text: its exercises (GET /api/exercises, those of this lesson), each at its
 * page. Nothing while they load, when the lesson has none, or when they could not be listed:
 * the lesson reads whole without them.
 */
export function LessonExercises({ lesson }: { lesson: string }) {
  const { t } = useTranslation('lessons');
  const exercises = useQuery({ ...exerciseListQuery(useLanguage()), select: (all) => all.filter((e) => e.lesson === lesson) });
  if (!exercises.data?.length) return null;
  return (
    <section className="lesson-exercises" aria-labelledby="lesson-exercises-title" data-testid="lesson-exercises">
      <h2 id="lesson-exercises-title">{t('exercises.heading')}</h2>
      <p>{t('exercises.intro')}</p>
      <ul>
        {exercises.data.map((e) => (
          <li key={e.slug}>
            <Link to={`/exercises/${encodeURIComponent(e.slug)}`}>{e.title}</Link>
            <span className="lesson-exercises__summary"> — {e.summary}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
