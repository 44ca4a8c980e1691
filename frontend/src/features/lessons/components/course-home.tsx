import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';

import { useLessons } from '../api/lessons';
import { useProgress } from '../lib/progress';
import { progressStoreFor, type ReaderProp } from '../lib/reader';

import './lessons.css';

/** In a read lesson's number's place: a symbol, not words (the badge beside it says "read"). */
const READ_MARK = '✓';

/** The course home: what the course is, progress, and every lesson in order. `reader` (from
 *  the app) says where progress is kept; left out, in this browser as in solo mode. `children`:
 *  what the app shows under the introduction (a student's assigned exercises). */
export function CourseHome({ reader, children }: { reader?: ReaderProp; children?: ReactNode }) {
  const { t } = useTranslation(['lessons', 'common']);
  const lessons = useLessons();
  const { isRead } = useProgress(progressStoreFor(reader));

  usePageTitle(null);

  return (
    <div className="home">
      <header className="home__intro">
        <h1>{t('common:app.name')}</h1>
        <p className="lesson__summary">
          <Trans t={t} i18nKey="home.intro" components={{ code: <code /> }} />
        </p>
      </header>
      {children}

      {lessons.isPending ? <Loading label={t('home.loading')} /> : null}
      {lessons.isError ? <ErrorMessage title={t('home.loadFailed')} error={lessons.error} /> : null}
      {lessons.data ? (
        lessons.data.length === 0 ? (
          <p>{t('home.empty')}</p>
        ) : (
          <>
            <BeginnerPath lessons={lessons.data} />
            <LessonList lessons={lessons.data.filter((l) => !isBeforeTheCourse(l))} counted={lessons.data} isRead={isRead} />
          </>
        )
      ) : null}
    </div>
  );
}

interface LessonSummary {
  slug: string;
  title: string;
  summary: string;
  minutes?: number | null;
  order: number;
}

interface LessonListProps {
  lessons: LessonSummary[];
  /** Every lesson, lesson 0 too: the count the instructor's roster gives, "n of 12 read". */
  counted: LessonSummary[];
  isRead: (slug: string) => boolean;
}

/** Lesson 0 comes before the course: a way in for beginners, not a step everyone takes. */
function isBeforeTheCourse(lesson: LessonSummary): boolean {
  return lesson.order === 0;
}

/** The beginner's path: lesson 0 offered on its own, before the course's lessons. */
function BeginnerPath({ lessons }: { lessons: LessonSummary[] }) {
  const { t } = useTranslation('lessons');
  const first = lessons.find(isBeforeTheCourse);
  if (!first) return null;
  return (
    <aside className="callout callout--sunken home__beginner" aria-labelledby="beginner-heading" data-testid="beginner-path">
      <h2 id="beginner-heading">{t('home.beginner.heading')}</h2>
      <p>{t('home.beginner.text', { minutes: first.minutes ?? 0 })}</p>
      <Link className="button" to={`/lessons/${first.slug}`}>
        {t('home.beginner.link', { title: first.title })}
      </Link>
    </aside>
  );
}

function LessonList({ lessons, counted, isRead }: LessonListProps) {
  const { t } = useTranslation('lessons');
  const readCount = counted.filter((l) => isRead(l.slug)).length;
  const nextLesson = lessons.find((l) => !isRead(l.slug));
  return (
    <section aria-labelledby="lessons-heading">
      <div className="home__progress">
        <h2 id="lessons-heading">{t('home.heading')}</h2>
        <p data-testid="progress-text">{t('home.progress', { read: readCount, total: counted.length })}</p>
        <progress max={counted.length} value={readCount} aria-label={t('home.progressLabel')} />
        {nextLesson ? (
          <Link className="button button--primary" to={`/lessons/${nextLesson.slug}`}>
            {t(lessons.some((l) => isRead(l.slug)) ? 'home.continue' : 'home.start', { title: nextLesson.title })}
          </Link>
        ) : null}
      </div>
      <ol className="lesson-list" data-testid="lesson-list">
        {lessons.map((lesson) => {
          const read = isRead(lesson.slug);
          return (
            <li key={lesson.slug} className={`lesson-card${read ? ' lesson-card--read' : ''}`}>
              <span className="lesson-card__number" aria-hidden="true">
                {read ? READ_MARK : lesson.order}
              </span>
              <div>
                <Link to={`/lessons/${lesson.slug}`} className="lesson-card__title">
                  {lesson.title}
                </Link>
                {read ? <span className="badge badge--ok">{t('meta.read')}</span> : null}
                {lesson.summary ? <p className="lesson-card__summary">{lesson.summary}</p> : null}
                {lesson.minutes != null ? <p className="lesson-card__meta">{t('meta.minutes', { minutes: lesson.minutes })}</p> : null}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
