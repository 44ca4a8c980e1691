import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';

import { useLessons } from '../api/lessons';
import { useProgress } from '../lib/progress';
import { progressStoreFor, type ReaderProp } from '../lib/reader';

import './lessons.css';

/** The course home: what the course is, progress, and every lesson in order. `reader` (from
 *  the app) says where progress is kept; left out, in this browser as in solo mode. */
export function CourseHome({ reader }: { reader?: ReaderProp }) {
  const lessons = useLessons();
  const { isRead } = useProgress(progressStoreFor(reader));

  usePageTitle(null);

  return (
    <div className="home">
      <header className="home__intro">
        <h1>C10K Lab</h1>
        <p className="lesson__summary">
          How does one Linux server handle ten thousand connections? Work through the I/O models, from one process
          per connection to <code>select</code>, <code>poll</code>, <code>epoll</code> and <code>io_uring</code>, and
          benchmark each real server from inside the lesson.
        </p>
      </header>

      {lessons.isPending ? <Loading label="Loading lessons…" /> : null}
      {lessons.isError ? <ErrorMessage title="The lessons could not be loaded." error={lessons.error} /> : null}
      {lessons.data ? (
        lessons.data.length === 0 ? (
          <p>No lessons yet.</p>
        ) : (
          <LessonList lessons={lessons.data} isRead={isRead} />
        )
      ) : null}
    </div>
  );
}

interface LessonListProps {
  lessons: { slug: string; title: string; summary: string; minutes?: number | null; order: number }[];
  isRead: (slug: string) => boolean;
}

function LessonList({ lessons, isRead }: LessonListProps) {
  const readCount = lessons.filter((l) => isRead(l.slug)).length;
  const nextLesson = lessons.find((l) => !isRead(l.slug));
  return (
    <section aria-labelledby="lessons-heading">
      <div className="home__progress">
        <h2 id="lessons-heading">Lessons</h2>
        <p data-testid="progress-text">
          {readCount} of {lessons.length} read
        </p>
        <progress max={lessons.length} value={readCount} aria-label="Lessons read" />
        {nextLesson ? (
          <Link className="button button--primary" to={`/lessons/${nextLesson.slug}`}>
            {readCount === 0 ? 'Start the course' : 'Continue'}: {nextLesson.title}
          </Link>
        ) : null}
      </div>
      <ol className="lesson-list" data-testid="lesson-list">
        {lessons.map((lesson) => {
          const read = isRead(lesson.slug);
          return (
            <li key={lesson.slug} className={`lesson-card${read ? ' lesson-card--read' : ''}`}>
              <span className="lesson-card__number" aria-hidden="true">
                {read ? '✓' : lesson.order}
              </span>
              <div>
                <Link to={`/lessons/${lesson.slug}`} className="lesson-card__title">
                  {lesson.title}
                </Link>
                {read ? <span className="badge badge--ok">read</span> : null}
                {lesson.summary ? <p className="lesson-card__summary">{lesson.summary}</p> : null}
                {lesson.minutes != null ? <p className="lesson-card__meta">{lesson.minutes} min</p> : null}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
