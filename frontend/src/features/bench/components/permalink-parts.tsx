import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useLanguage } from '@/hooks/use-language';
import { lessonQuery } from '@/hooks/use-lesson';
import { usePageTitle } from '@/hooks/use-page-title';
import { ApiError } from '@/lib/api-client';

import { provenanceRows } from '../lib/permalink';

import './permalink.css';

/** Why a permalink does not open, in words that say what to do: never a blank page. */
export function PermalinkProblem({ what, id, error }: { what: 'run' | 'series'; id: string; error: unknown }) {
  const { t } = useTranslation('bench');
  const status = error instanceof ApiError ? error.status : null;
  const detail = error instanceof Error ? error.message : String(error);
  // A run and a series are different words (and Chinese words): each has its own headings.
  const words = `permalink.problem.${what}` as const;
  usePageTitle(t(`${words}.cannotShow`));
  let heading = t(`${words}.cannotShow`);
  let advice: ReactNode = detail;
  if (status === 404) {
    heading = t(`${words}.notFound`, { id });
    advice = t(`${words}.notFoundAdvice`);
  } else if (status === 403) {
    heading = t(`${words}.forbidden`);
    advice = t('permalink.problem.forbiddenAdvice', { detail });
  } else if (status === 401) {
    heading = t(`${words}.unauthorized`);
    advice = (
      <Trans
        t={t}
        i18nKey="permalink.problem.unauthorizedAdvice"
        components={{ join: <Link to="/join" />, login: <Link to="/login" /> }}
      />
    );
  }
  return (
    <div className="page permalink" role="alert" data-testid="permalink-problem" data-status={status ?? undefined}>
      <h1>{heading}</h1>
      <p>{advice}</p>
      <p>
        <Link to="/">{t('permalink.back')}</Link>
      </p>
    </div>
  );
}

/** "From the lesson: The C10K problem", linking back to it. */
export function LessonLink({ slug }: { slug: string }) {
  const { t } = useTranslation('bench');
  const title = useQuery({ ...lessonQuery(slug, useLanguage()), staleTime: Infinity, select: (lesson) => lesson.title }).data;
  return (
    <p className="permalink__lesson">
      <Trans
        t={t}
        i18nKey="permalink.fromLesson"
        values={{ title: title ?? slug }}
        components={{ lesson: <Link to={`/lessons/${encodeURIComponent(slug)}`} data-testid="permalink-lesson" /> }}
      />
    </p>
  );
}

/** The runner's record of where a run was measured; until it has one, what to expect. */
export function ProvenanceList({ provenance, pending }: { provenance: Record<string, unknown> | null | undefined; pending: string }) {
  const { t, i18n } = useTranslation('bench');
  const rows = provenanceRows(provenance, t, i18n.resolvedLanguage);
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
