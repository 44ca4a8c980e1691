import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { lessonQuery } from '@/hooks/use-lesson';
import { usePageTitle } from '@/hooks/use-page-title';
import { ApiError } from '@/lib/api-client';

import { provenanceRows } from '../lib/permalink';

import './permalink.css';

/** Why a permalink does not open, in words that say what to do: never a blank page. */
export function PermalinkProblem({ what, id, error }: { what: 'run' | 'series'; id: string; error: unknown }) {
  const status = error instanceof ApiError ? error.status : null;
  const detail = error instanceof Error ? error.message : String(error);
  usePageTitle(`This ${what} cannot be shown`);
  let heading = `This ${what} cannot be shown`;
  let advice: ReactNode = detail;
  if (status === 404) {
    heading = `No ${what} ${id}`;
    advice = `There is no ${what} with this id here: check the link, or ask whoever sent it for it again.`;
  } else if (status === 403) {
    heading = `This ${what} is not yours to see`;
    advice = (
      <>
        The server says: “{detail}”. In a class, a result opens for the class’s students and its instructor
        only: join the class it belongs to with its code, or ask its owner for the figures.
      </>
    );
  } else if (status === 401) {
    heading = `Join the class to see this ${what}`;
    advice = (
      <>
        Results in a class open for its members only. <Link to="/join">Join with the class code</Link> or{' '}
        <Link to="/login">log in as its instructor</Link>, then open the link again.
      </>
    );
  }
  return (
    <div className="page permalink" role="alert" data-testid="permalink-problem" data-status={status ?? undefined}>
      <h1>{heading}</h1>
      <p>{advice}</p>
      <p>
        <Link to="/">← Back to the course</Link>
      </p>
    </div>
  );
}

/** "From the lesson: The C10K problem", linking back to it. */
export function LessonLink({ slug }: { slug: string }) {
  const title = useQuery({ ...lessonQuery(slug), staleTime: Infinity, select: (lesson) => lesson.title }).data;
  return (
    <p className="permalink__lesson">
      From the lesson{' '}
      <Link to={`/lessons/${encodeURIComponent(slug)}`} data-testid="permalink-lesson">
        {title ?? slug}
      </Link>
    </p>
  );
}

/** The runner's record of where a run was measured; until it has one, what to expect. */
export function ProvenanceList({ provenance, pending }: { provenance: Record<string, unknown> | null | undefined; pending: string }) {
  const rows = provenanceRows(provenance);
  if (rows.length === 0) return <p className="permalink__muted">{pending}</p>;
  return (
    <dl className="permalink__provenance" data-testid="provenance">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A titled part of a permalink page (h2 under the page's h1). */
export function PermalinkSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="permalink__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
