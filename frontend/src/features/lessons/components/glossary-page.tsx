import { useEffect } from 'react';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';

import { useGlossary } from '../api/lessons';

import { LessonMarkdown } from './lesson-markdown';

const NO_BLOCKS = {};

/** The course's glossary: every term in a sentence or two, linking the lesson that teaches it. */
export function GlossaryPage() {
  const glossary = useGlossary();

  useEffect(() => {
    if (glossary.data) document.title = `${glossary.data.title} · C10K Lab`;
  }, [glossary.data]);

  if (glossary.isPending) return <Loading label="Loading the glossary…" />;
  if (glossary.isError) {
    return (
      <div className="page">
        <ErrorMessage title="The glossary could not be loaded." error={glossary.error} />
        <p>
          <Link to="/">← Back to all lessons</Link>
        </p>
      </div>
    );
  }
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
