import { useCallback, useEffect, useState } from 'react';

import { useRunStream } from '@/hooks/use-run-stream';
import { ApiError } from '@/lib/api-client';
import type { Run } from '@/lib/api-schemas';
import { cancelRun, getRun } from '@/lib/runs-api';

import { createRun } from '../api/runs';
import type { ExperimentOrigin, RunRequest } from '../lib/experiment-block';
import { initialRunState, ON_MEASURED_MACHINE, runReducer, type RunState } from '../lib/run-state';
import { forgetRunId, loadSavedRunId, saveRunId } from '../lib/saved-runs';

/** Charts and labels re-render at most this often (≤ 10 Hz). */
export const RENDER_INTERVAL_MS = 100;

/**
 * How soon a run's page may draw `next`, having drawn `drawn`. On the machine it measures, new
 * figures of a run being warmed up or measured wait for the next phase (held: an infinite
 * interval); a new phase, a connection lost or found, a note or the result are drawn at once.
 * Drawing new figures every 2 s with the label's dot pulsing took about 17 % of a core there,
 * and the stability check called every such run disturbed; with the dot still, half of them;
 * with the figures held, none (results/tab-before.md, tab-still.md, tab.md). A page on another
 * machine disturbs nothing it measures: it draws as the figures come.
 */
export function renderIntervalFor(next: RunState, drawn: RunState, holds = ON_MEASURED_MACHINE): number {
  const measuring = next.phase === 'warmup' || next.phase === 'measure';
  const onlyFigures =
    next.phase === drawn.phase && next.connection === drawn.connection && next.notes === drawn.notes && next.result === drawn.result;
  return holds && measuring && onlyFigures ? Number.POSITIVE_INFINITY : RENDER_INTERVAL_MS;
}
const MAX_RESUBSCRIBE_ATTEMPTS = 8;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface UseRun {
  state: RunState;
  /** This widget's last run that finished with figures, kept while a newer one runs: a run
   *  cancelled halfway leaves it on show, not half a chart. Null before any. */
  previous: RunState | null;
  /** Queues a run; resolves to its id, or null when the API refused it. */
  start: () => Promise<string | null>;
  cancel: () => Promise<void>;
}

/** A run's state fed by its SSE stream (useRunStream), shared by the widget's own runs and a
 *  permalink's. */
function useRunState() {
  return useRunStream(runReducer, initialRunState, { renderInterval: renderIntervalFor, maxAttempts: MAX_RESUBSCRIBE_ATTEMPTS });
}

/**
 * One benchmark run: POST /api/runs, then the run's SSE stream. `origin` (the
 * lesson and block, when known) goes with the run for the class board.
 */
export function useRun(experimentKey: string, request: RunRequest, origin?: ExperimentOrigin): UseRun {
  const { state, dispatch, getState, follow, close } = useRunState();
  const [previous, setPrevious] = useState<RunState | null>(null);

  const start = useCallback(async () => {
    const last = getState();
    if (last.phase === 'done' && last.result !== null) setPrevious(last);
    close();
    dispatch({ type: 'submit' });
    try {
      const created = await createRun(request, origin);
      saveRunId(experimentKey, created.id);
      dispatch({
        type: 'created',
        runId: created.id,
        status: created.status,
        position: created.position ?? null,
        waitS: created.wait_s ?? null,
        held: created.held,
      });
      follow(created.id);
      return created.id;
    } catch (error) {
      dispatch({ type: 'submit-failed', reason: errorText(error) });
      return null;
    }
  }, [close, dispatch, getState, experimentKey, request, origin, follow]);

  const cancel = useCallback(async () => {
    const runId = getState().runId;
    if (runId === null) return;
    try {
      const answer = await cancelRun(runId);
      if (answer.status === 'cancelled' && getState().runId === runId) {
        close();
        dispatch({ type: 'cancelled' });
      }
    } catch (error) {
      dispatch({ type: 'note', note: { key: 'notes.cancelFailed', values: { error: errorText(error) } } });
    }
  }, [close, dispatch, getState]);

  // Re-attach to this experiment's last run after a reload; its events replay from #1.
  useEffect(() => {
    const saved = loadSavedRunId(experimentKey);
    if (saved === null) return;
    const controller = new AbortController();
    getRun(saved, controller.signal)
      .then((run) => {
        if (controller.signal.aborted || getState().phase !== 'idle') return;
        dispatch({ type: 'attach', run });
        follow(run.id);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) forgetRunId(experimentKey);
      });
    return () => {
      controller.abort();
    };
  }, [experimentKey, dispatch, getState, follow]);

  return { state, previous, start, cancel };
}

/**
 * The run `runId` from its first event, or nothing while null: a series' point being measured,
 * followed as the series goes on. Its figures are held while measured, as a run's are.
 */
export function useFollowRunId(runId: string | null): RunState {
  const { state, dispatch, follow, close } = useRunState();
  useEffect(() => {
    if (runId === null) return;
    dispatch({ type: 'follow', runId });
    follow(runId);
    return close;
  }, [runId, dispatch, follow, close]);
  return runId === null ? initialRunState : state;
}

/**
 * A run known by its id (a permalink): its stream from event #1, which replays a finished run
 * whole and follows a queued or running one live. `run` is GET /api/runs/{id}'s answer (keep
 * it stable: another answer attaches again and replays from #1); the stream starts once it is
 * there.
 */
export function useFollowRun(run: Run | undefined): RunState {
  const { state, dispatch, follow, close } = useRunState();
  useEffect(() => {
    if (!run) return;
    dispatch({ type: 'attach', run });
    follow(run.id);
    return close;
  }, [run, dispatch, follow, close]);
  return state;
}
