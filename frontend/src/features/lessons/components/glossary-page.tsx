import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';

import { useGlossary } from '../api/lessons';

import { LessonMarkdown } from './lesson-markdown';
import { PageLoadFailure } from './page-load-failure';

const NO_BLOCKS = {};

/** The course's glossary: every term in a sentence or two, linking the lesson that teaches it. */
export function GlossaryPage() {
  const { t } = useTranslation('lessons');
  const glossary = useGlossary();

  usePageTitle(glossary.data?.title);

  if (glossary.isPending) return <Loading label={t('glossary.loading')} />;
  if (glossary.isError) return <PageLoadFailure title={t('glossary.loadFailed')} error={glossary.error} />;
  const data = glossary.data;
  return (
    <article className="lesson" data-testid="glossary">
      <header className="lesson__header">
        <p className="lesson__meta">
          <Link to="/">{t('meta.allLessons')}</Link>
          <span aria-hidden="true"> · </span>
          {t('glossary.terms', { count: data.terms.length })}
        </p>
        <h1>{data.title}</h1>
        <p className="lesson__summary">{data.summary}</p>
      </header>
      <LessonMarkdown markdown={data.markdown} blocks={NO_BLOCKS} />
    </article>
  );
}
