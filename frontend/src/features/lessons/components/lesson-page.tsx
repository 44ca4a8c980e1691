import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Loading } from '@/components/loading';
import { useLanguage } from '@/hooks/use-language';
import { usePageTitle } from '@/hooks/use-page-title';
import { isNotFound } from '@/lib/api-client';
import type { LessonLink } from '@/lib/api-schemas';

import { useGlossary, useLesson } from '../api/lessons';
import { useInstructorMode } from '../lib/instructor-mode';
import { useProgress, useReportCurrentLesson } from '../lib/progress';
import { maySeeSpeakerNotes, progressStoreFor, showsInstructorSwitch, type ReaderProp } from '../lib/reader';

import { InstructorToggle } from './instructor-toggle';
import { LessonExercises } from './lesson-exercises';
import { LessonMarkdown, type ClassQuestionRenderer, type FencedBlockRenderers } from './lesson-markdown';
import { PageLoadFailure } from './page-load-failure';

import './lessons.css';

interface LessonPageProps {
  slug: string;
  blocks: FencedBlockRenderers;
  /** Who reads (from the app): where "read" is kept, and whether the instructor switch shows.
   *  Left out, the page behaves as in solo mode. */
  reader?: ReaderProp;
  /** In a class (from the app): what stands at each question of Check yourself. */
  classQuestion?: ClassQuestionRenderer | null;
}

function NavLink({ lesson, rel }: { lesson: LessonLink; rel: 'prev' | 'next' }) {
  const { t } = useTranslation('lessons');
  if (!lesson) return <span />;
  return (
    <Link to={`/lessons/${lesson.slug}`} className={`lesson-nav__link lesson-nav__link--${rel}`} rel={rel}>
      <span className="lesson-nav__dir">{t(rel === 'prev' ? 'page.previous' : 'page.next')}</span>
      <span className="lesson-nav__title">{lesson.title}</span>
    </Link>
  );
}

/** One lesson: header, Markdown body with widgets, its exercises, "mark as read" and prev/next links. */
export function LessonPage({ slug, blocks, reader, classQuestion = null }: LessonPageProps) {
  const { t } = useTranslation('lessons');
  const lesson = useLesson(slug);
  // Its terms link from the lesson's prose; without it (still loading, or failed) none do.
  const glossary = useGlossary().data;
  const store = progressStoreFor(reader);
  const { isRead, setRead, canSave, saveError } = useProgress(store);
  useReportCurrentLesson(slug, store);
  const instructor = useInstructorMode();
  // Only an instructor (or solo mode) has notes to show: the server strips them for the rest.
  const notesAllowed = maySeeSpeakerNotes(reader);
  const language = useLanguage();

  // A lesson that is not there is said so, in the tab's title too (not the last page's).
  const failed = lesson.isError ? t(isNotFound(lesson.error) ? 'page.notFound' : 'page.loadFailed') : null;
  usePageTitle(failed ?? lesson.data?.title);

  if (lesson.isPending) return <Loading label={t('page.loading')} />;
  if (lesson.isError) return <PageLoadFailure title={failed ?? ''} error={lesson.error} />;

  const data = lesson.data;
  const read = isRead(data.slug);
  return (
    <article className="lesson" data-testid="lesson">
      <header className="lesson__header">
        <div className="lesson__topline">
          <p className="lesson__meta">
            <Link to="/">{t('meta.allLessons')}</Link>
            <span aria-hidden="true"> · </span>
            {t('meta.lessonNumber', { order: data.order })}
            <> · {t('meta.minutes', { minutes: data.minutes })}</>
            {read ? <span className="badge badge--ok">{t('meta.read')}</span> : null}
          </p>
          {showsInstructorSwitch(reader, instructor.enabled) ? (
            <InstructorToggle enabled={instructor.enabled} onChange={instructor.setEnabled} />
          ) : null}
        </div>
        <h1 lang={data.language === language ? undefined : data.language}>{data.title}</h1>
        {data.summary ? <p className="lesson__summary">{data.summary}</p> : null}
        {data.language === language ? null : (
          <p className="lesson__untranslated" role="note" data-testid="lesson-untranslated">
            {t('page.untranslated')}
          </p>
        )}
      </header>

      <div lang={data.language === language ? undefined : data.language}>
        <LessonMarkdown
          markdown={data.markdown}
          blocks={blocks}
          diagrams={data.diagrams}
          showSpeakerNotes={notesAllowed && instructor.enabled}
          glossaryTerms={glossary?.terms}
          glossaryMarkdown={glossary?.markdown}
          classQuestion={classQuestion}
        />
      </div>

      <LessonExercises lesson={data.slug} />

      <footer className="lesson__footer">
        <label className="lesson__read">
          <input
            type="checkbox"
            checked={read}
            disabled={!canSave}
            onChange={(event) => {
              setRead(data.slug, event.target.checked);
            }}
          />{' '}
          {t('page.markRead')}
        </label>
        {saveError ? (
          <p className="lesson__save-error" role="alert">
            {t('page.saveFailed', { error: saveError.message })}
          </p>
        ) : null}
        <nav className="lesson-nav" aria-label={t('page.navLabel')}>
          <NavLink lesson={data.prev} rel="prev" />
          <NavLink lesson={data.next} rel="next" />
        </nav>
      </footer>
    </article>
  );
}
