import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';
import { useServers } from '@/hooks/use-servers';
import { ApiError } from '@/lib/api-client';

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
  const status = error instanceof ApiError ? error.status : null;
  const detail = error instanceof Error ? error.message : String(error);
  let heading = 'This saved edit cannot be shown';
  let advice: ReactNode = detail;
  if (status === 404) {
    heading = `No saved edit ${id}`;
    advice = 'There is no saved edit with this id here: check the link, or ask whoever sent it for it again.';
  } else if (status === 403) {
    heading = 'This saved edit is not yours to see';
    advice = (
      <>
        The server says: “{detail}”. In a class, an edit opens for the class’s students and its instructor only: join
        the class it belongs to with its code, or ask its owner for the file.
      </>
    );
  } else if (status === 401) {
    heading = 'Join the class to see this saved edit';
    advice = (
      <>
        Edits in a class open for its members only. <Link to="/join">Join with the class code</Link> or{' '}
        <Link to="/login">log in as its instructor</Link>, then open the link again.
      </>
    );
  }
  usePageTitle(heading);
  return (
    <div className="page" role="alert" data-testid="variant-problem" data-status={status ?? undefined}>
      <h1>{heading}</h1>
      <p>{advice}</p>
      <p>
        <Link to="/edit">← Edit a server</Link>
      </p>
    </div>
  );
}

/** An answer's exercise (by its title, once known) and the verdict on it. */
function ExerciseVerdict({ slug, verdict }: { slug: string; verdict: Variant['verdict'] }) {
  const exercise = useQuery(exerciseQuery(slug));
  return (
    <section aria-labelledby="variant-exercise-title" data-testid="variant-exercise">
      <h2 id="variant-exercise-title">Exercise</h2>
      <p>
        An answer to the exercise{' '}
        <Link to={`/exercises/${encodeURIComponent(slug)}`}>{exercise.data?.title ?? slug}</Link>.
      </p>
      <div aria-live="polite">{verdict ? <VerdictView verdict={verdict} /> : <p className="edit__muted">It has no verdict.</p>}</div>
    </section>
  );
}

function VariantView({ variant }: { variant: Variant }) {
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
  usePageTitle(`Edited ${variant.server}`);

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
        <p className="edit__kicker">Saved edit</p>
        <h1 id="variant-title">
          Edited <code>{variant.server}</code>
        </h1>
        <p className="edit__muted">
          {variant.file}
          {Number.isNaN(made.getTime()) ? null : (
            <>
              {' · made '}
              <time dateTime={variant.created_at}>{made.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}</time>
            </>
          )}
        </p>
        <p className="edit__actions">
          <Link
            className="button"
            to={`/edit/${encodeURIComponent(variant.server)}?from=${encodeURIComponent(variant.id)}`}
            data-testid="edit-copy"
          >
            Edit a copy
          </Link>
        </p>
      </header>

      {variant.exercise ? <ExerciseVerdict slug={variant.exercise} verdict={variant.verdict} /> : null}

      <section className="edit__build" aria-labelledby="variant-check-title">
        <h2 id="variant-check-title">Build and check</h2>
        {attachError ? (
          <ErrorMessage title="Its build could not be followed" error={attachError} />
        ) : (
          <p className="check-state" role="status" aria-live="polite" data-testid="check-state" data-phase={state.phase}>
            {checkStateLabel(state)}
          </p>
        )}
        <BuildOutcome state={state} />
      </section>

      <section aria-labelledby="variant-benchmark-title">
        <h2 id="variant-benchmark-title">Benchmark</h2>
        {passedChecks(state.phase) && server ? (
          <BenchmarkForm server={server} variantId={variant.id} />
        ) : (
          <>
            <button type="button" className="button button--primary" disabled aria-describedby="variant-benchmark-why">
              Benchmark against the original
            </button>
            <p id="variant-benchmark-why" className="edit__muted">
              {state.phase === 'failed' || state.phase === 'cancelled'
                ? 'Only an edit that built and passed its checks can be benchmarked: edit a copy and fix it.'
                : 'Possible once it has built and passed its checks.'}
            </p>
          </>
        )}
      </section>

      <section aria-labelledby="variant-changes-title">
        <h2 id="variant-changes-title">Changes against the original</h2>
        <DiffLayoutPicker layout={layout} onChange={setLayout} />
        {original.isPending ? (
          <Loading label={`Loading the original ${variant.file}…`} />
        ) : original.isError ? (
          <ErrorMessage title={`Could not load the original ${variant.file}`} error={original.error} />
        ) : (
          <DiffView original={original.data.text} changed={variant.source} layout={layout} changedLabel="this edit" file={variant.file} />
        )}
      </section>
    </article>
  );
}

/** /#/variants/:id: a saved edit, for whoever may see it (its owner, their classmates and
 *  instructor): its build and check, its changes, and a copy to edit or a benchmark to run. */
export function VariantPage({ variantId }: { variantId: string }) {
  const variant = useQuery({
    queryKey: ['variants', variantId],
    queryFn: ({ signal }) => getVariant(variantId, signal),
    staleTime: Infinity,
  });
  if (variant.isPending) return <Loading label="Loading the saved edit…" />;
  if (variant.isError) return <VariantProblem id={variantId} error={variant.error} />;
  return <VariantView variant={variant.data} />;
}
