import { Link } from 'react-router';

import { Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';
import type { LessonLink } from '@/lib/api-schemas';

import { useLesson } from '../api/lessons';
import { useInstructorMode } from '../lib/instructor-mode';
import { useProgress } from '../lib/progress';

import { InstructorToggle } from './instructor-toggle';
import { LessonMarkdown, type FencedBlockRenderers } from './lesson-markdown';
import { PageLoadFailure } from './page-load-failure';

import './lessons.css';

interface LessonPageProps {
  slug: string;
  blocks: FencedBlockRenderers;
}

function NavLink({ lesson, rel }: { lesson: LessonLink; rel: 'prev' | 'next' }) {
  if (!lesson) return <span />;
  return (
    <Link to={`/lessons/${lesson.slug}`} className={`lesson-nav__link lesson-nav__link--${rel}`} rel={rel}>
      <span className="lesson-nav__dir">{rel === 'prev' ? '← Previous' : 'Next →'}</span>
      <span className="lesson-nav__title">{lesson.title}</span>
    </Link>
  );
}

/** One lesson: header, Markdown body with widgets, "mark as read" and prev/next links. */
export function LessonPage({ slug, blocks }: LessonPageProps) {
  const lesson = useLesson(slug);
  const { isRead, setRead } = useProgress();
  const instructor = useInstructorMode();

  usePageTitle(lesson.data?.title);

  if (lesson.isPending) return <Loading label="Loading lesson…" />;
  if (lesson.isError) return <PageLoadFailure title="This lesson could not be loaded." error={lesson.error} />;

  const data = lesson.data;
  const read = isRead(data.slug);
  return (
    <article className="lesson" data-testid="lesson">
      <header className="lesson__header">
        <div className="lesson__topline">
          <p className="lesson__meta">
            <Link to="/">All lessons</Link>
            <span aria-hidden="true"> · </span>
            Lesson {data.order}
            {data.minutes != null ? <> · {data.minutes} min</> : null}
            {read ? <span className="badge badge--ok">read</span> : null}
          </p>
          <InstructorToggle enabled={instructor.enabled} onChange={instructor.setEnabled} />
        </div>
        <h1>{data.title}</h1>
        {data.summary ? <p className="lesson__summary">{data.summary}</p> : null}
      </header>

      <LessonMarkdown
        markdown={data.markdown}
        blocks={blocks}
        diagrams={data.diagrams}
        showSpeakerNotes={instructor.enabled}
      />

      <footer className="lesson__footer">
        <label className="lesson__read">
          <input
            type="checkbox"
            checked={read}
            onChange={(event) => {
              setRead(data.slug, event.target.checked);
            }}
          />{' '}
          I have read this lesson
        </label>
        <nav className="lesson-nav" aria-label="Lessons">
          <NavLink lesson={data.prev} rel="prev" />
          <NavLink lesson={data.next} rel="next" />
        </nav>
      </footer>
    </article>
  );
}
