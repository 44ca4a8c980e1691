import { useCallback } from 'react';

import { useRunStream } from '@/hooks/use-run-stream';
import { cancelRun, getRun } from '@/lib/runs-api';

import { createVariant, type VariantCreated } from '../api/variants';
import { checkReducer, initialCheckState, isFinished, type CheckState } from '../lib/check-state';
import { describeRefusal } from '../lib/refusal';

/** A few events per build: render each as it comes, but a replayed run in one go. */
const RENDER_INTERVAL_MS = 50;
const MAX_RESUBSCRIBE_ATTEMPTS = 6;

export interface UseCheckRun {
  state: CheckState;
  /** Sends the file (an answer to `exercise`, if given) and follows its build; resolves to the
   *  new variant, or null if refused. */
  build: (server: string, source: string, exercise?: string | null) => Promise<VariantCreated | null>;
  /** Follows a check run known by id (a reload, a variant's page): its events from #1. */
  attach: (variantId: string, runId: string) => Promise<void>;
  cancel: () => Promise<void>;
}

/**
 * One variant's build and check (an exercise's answer: and its measurement): POST
 * /api/variants, then its check run's SSE stream, followed as the bench's runs are
 * (useRunStream).
 */
export function useCheckRun(): UseCheckRun {
  const { state, dispatch, getState, follow, close, settle } = useRunStream(checkReducer, initialCheckState, {
    renderInterval: RENDER_INTERVAL_MS,
    maxAttempts: MAX_RESUBSCRIBE_ATTEMPTS,
  });

  const build = useCallback(
    async (server: string, text: string, exercise: string | null = null) => {
      dispatch({ type: 'submit' });
      try {
        const created = await createVariant(server, text, exercise);
        close();
        dispatch({
          type: 'created',
          variantId: created.id,
          runId: created.check.id,
          position: created.check.position,
          waitS: created.check.wait_s,
          held: created.check.held,
        });
        follow(created.check.id);
        return created;
      } catch (error) {
        dispatch({ type: 'refused', refusal: describeRefusal(error instanceof Error ? error : new Error(String(error))) });
        return null;
      }
    },
    [close, dispatch, follow],
  );

  const attach = useCallback(
    async (variantId: string, runId: string) => {
      const run = await getRun(runId);
      close();
      dispatch({ type: 'attach', variantId, run });
      follow(run.id);
    },
    [close, dispatch, follow],
  );

  const cancel = useCallback(async () => {
    const { runId, phase } = getState();
    if (runId === null || isFinished(phase)) return;
    try {
      await cancelRun(runId);
      await settle(runId);
    } catch (error) {
      dispatch({ type: 'note', note: { kind: 'cancel-failed', detail: error instanceof Error ? error.message : String(error) } });
    }
  }, [dispatch, getState, settle]);

  return { state, build, attach, cancel };
}
