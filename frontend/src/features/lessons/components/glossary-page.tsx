import { Link } from 'react-router';

import { Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';

import { useGlossary } from '../api/lessons';

import { LessonMarkdown } from './lesson-markdown';
import { PageLoadFailure } from './page-load-failure';

const NO_BLOCKS = {};

/** The course's glossary: every term in a sentence or two, linking the lesson that teaches it. */
export function GlossaryPage() {
  const glossary = useGlossary();

  usePageTitle(glossary.data?.title);

  if (glossary.isPending) return <Loading label="Loading the glossary…" />;
  if (glossary.isError) return <PageLoadFailure title="The glossary could not be loaded." error={glossary.error} />;
  const data = glossary.data;
  return (
    <article className="lesson" data-testid="glossary">
      <header className="lesson__header">
        <p className="lesson__meta">
          <Link to="/">All lessons</Link>
          <span aria-hidden="true"> · </span>
          {data.terms.length} term{data.terms.length === 1 ? '' : 's'}
        </p>
        <h1>{data.title}</h1>
        <p className="lesson__summary">{data.summary}</p>
      </header>
      <LessonMarkdown markdown={data.markdown} blocks={NO_BLOCKS} />
    </article>
  );
}
