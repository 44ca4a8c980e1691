import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { useLanguage } from '@/hooks/use-language';
import { usePageTitle } from '@/hooks/use-page-title';
import { useServers } from '@/hooks/use-servers';
import { ApiError } from '@/lib/api-client';

import { formatDateTime } from '@/lib/dates';
import { exerciseQuery } from '../api/exercises';
import { getOriginal, getVariant, type Variant } from '../api/variants';
import { useCheckRun } from '../hooks/use-check-run';
import { checkStateLabel, isFinished, passedChecks } from '../lib/check-state';

import { BenchmarkForm } from './benchmark-form';
import { BuildOutcome } from './build-outcome';
import { DiffLayoutPicker } from './diff-layout-picker';
import { DiffView, type DiffLayout } from './diff-view';
import { VerdictView } from './verdict-view';

import './edit.css';

/** Why a saved edit does not open, in words that say what to do (as the results' permalinks). */
function VariantProblem({ id, error }: { id: string; error: unknown }) {
  const { t } = useTranslation('edit');
  const status = error instanceof ApiError ? error.status : null;
  const detail = error instanceof Error ? error.message : String(error);
  let heading = t('variant.problem.title');
  let advice: ReactNode = detail;
  if (status === 404) {
    heading = t('variant.problem.notFound.title', { id });
    advice = t('variant.problem.notFound.body');
  } else if (status === 403) {
    heading = t('variant.problem.forbidden.title');
    advice = t('variant.problem.forbidden.body', { detail });
  } else if (status === 401) {
    heading = t('variant.problem.unauthorized.title');
    advice = (
      <Trans
        t={t}
        i18nKey="variant.problem.unauthorized.body"
        components={{ join: <Link to="/join" />, login: <Link to="/login" /> }}
      />
    );
  }
  usePageTitle(heading);
  return (
    <div className="page" role="alert" data-testid="variant-problem" data-status={status ?? undefined}>
      <h1>{heading}</h1>
      <p>{advice}</p>
      <p>
        <Link to="/edit">{t('variant.problem.back')}</Link>
      </p>
    </div>
  );
}

/** An answer's exercise (by its title, once known) and the verdict on it. */
function ExerciseVerdict({ slug, verdict }: { slug: string; verdict: Variant['verdict'] }) {
  const { t } = useTranslation('edit');
  const exercise = useQuery(exerciseQuery(slug, useLanguage()));
  return (
    <section aria-labelledby="variant-exercise-title" data-testid="variant-exercise">
      <h2 id="variant-exercise-title">{t('variant.exercise.title')}</h2>
      <p>
        <Trans
          t={t}
          i18nKey="variant.exercise.answerTo"
          values={{ title: exercise.data?.title ?? slug }}
          components={{ a: <Link to={`/exercises/${encodeURIComponent(slug)}`} /> }}
        />
      </p>
      <div aria-live="polite">
        {verdict ? <VerdictView verdict={verdict} criteria={exercise.data?.criteria} /> : <p className="edit__muted">{t('variant.exercise.noVerdict')}</p>}
      </div>
    </section>
  );
}

function VariantView({ variant }: { variant: Variant }) {
  const { t, i18n } = useTranslation('edit');
  const server = useServers().data?.find((s) => s.id === variant.server);
  const original = useQuery({
    queryKey: ['edit', 'original', variant.file],
    queryFn: ({ signal }) => getOriginal(variant.file, signal),
    staleTime: Infinity,
  });
  const { state, attach } = useCheckRun();
  const queryClient = useQueryClient();
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const [attachError, setAttachError] = useState<unknown>(null);
  const made = new Date(variant.created_at);
  usePageTitle(t('variant.pageTitle', { server: variant.server }));

  // The check run's events, from the first: a finished one replays whole, a live one is followed.
  useEffect(() => {
    attach(variant.id, variant.check_run_id).catch(setAttachError);
  }, [attach, variant.id, variant.check_run_id]);

  // An answer judged while the page was open: its verdict is read again once its run ends.
  const judging = variant.verdict?.status === 'pending' && isFinished(state.phase);
  useEffect(() => {
    if (judging) void queryClient.invalidateQueries({ queryKey: ['variants', variant.id], exact: true });
  }, [judging, queryClient, variant.id]);

  return (
    <article className="edit variant-page" data-testid="variant-page" aria-labelledby="variant-title">
      <header className="edit__header">
        <p className="edit__kicker">{t('variant.kicker')}</p>
        <h1 id="variant-title">
          <Trans t={t} i18nKey="variant.heading" values={{ server: variant.server }} components={{ code: <code /> }} />
        </h1>
        <p className="edit__muted">
          {variant.file}
          {Number.isNaN(made.getTime()) ? null : (
            <>
              {' · '}
              <Trans
                t={t}
                i18nKey="variant.made"
                values={{ when: formatDateTime(made, i18n.resolvedLanguage) }}
                components={{ time: <time dateTime={variant.created_at} /> }}
              />
            </>
          )}
        </p>
        <p className="edit__actions">
          <Link
            className="button"
            to={`/edit/${encodeURIComponent(variant.server)}?from=${encodeURIComponent(variant.id)}`}
          >
            {t('variant.editCopy')}
          </Link>
        </p>
      </header>

      {variant.exercise ? <ExerciseVerdict slug={variant.exercise} verdict={variant.verdict} /> : null}

      <section className="edit__build" aria-labelledby="variant-check-title">
        <h2 id="variant-check-title">{t('editPage.buildTitle')}</h2>
        {attachError ? (
          <ErrorMessage title={t('variant.followError')} error={attachError} />
        ) : (
          <p className="check-state" role="status" aria-live="polite" data-testid="check-state" data-phase={state.phase}>
            {checkStateLabel(state, t)}
          </p>
        )}
        <BuildOutcome state={state} />
      </section>

      <section aria-labelledby="variant-benchmark-title">
        <h2 id="variant-benchmark-title">{t('variant.benchmarkTitle')}</h2>
        {passedChecks(state.phase) && server ? (
          <BenchmarkForm server={server} variantId={variant.id} />
        ) : (
          <>
            <button type="button" className="button button--primary" disabled aria-describedby="variant-benchmark-why">
              {t('benchmark.submit')}
            </button>
            <p id="variant-benchmark-why" className="edit__muted">
              {state.phase === 'failed' || state.phase === 'cancelled' ? t('variant.benchmarkClosed') : t('variant.benchmarkLater')}
            </p>
          </>
        )}
      </section>

      <section aria-labelledby="variant-changes-title">
        <h2 id="variant-changes-title">{t('variant.changesTitle')}</h2>
        <DiffLayoutPicker layout={layout} onChange={setLayout} />
        {original.isPending ? (
          <Loading label={t('variant.loadingOriginal', { path: variant.file })} />
        ) : original.isError ? (
          <ErrorMessage title={t('variant.originalError', { path: variant.file })} error={original.error} />
        ) : (
          <DiffView
            original={original.data.text}
            changed={variant.source}
            layout={layout}
            changedLabel={t('variant.thisEdit')}
            file={variant.file}
          />
        )}
      </section>
    </article>
  );
}

/** /#/variants/:id: a saved edit, for whoever may see it (its owner, their classmates and
 *  instructor): its build and check, its changes, and a copy to edit or a benchmark to run. */
export function VariantPage({ variantId }: { variantId: string }) {
  const { t } = useTranslation('edit');
  const variant = useQuery({
    queryKey: ['variants', variantId],
    queryFn: ({ signal }) => getVariant(variantId, signal),
    staleTime: Infinity,
  });
  if (variant.isPending) return <Loading label={t('variant.loading')} />;
  if (variant.isError) return <VariantProblem id={variantId} error={variant.error} />;
  return <VariantView variant={variant.data} />;
}
