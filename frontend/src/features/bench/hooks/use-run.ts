import { useCallback, useEffect, useRef } from 'react';

import { useThrottledReducer } from '@/hooks/use-throttled-reducer';
import { ApiError } from '@/lib/api-client';
import { parseRunEventFrame, RUN_EVENT_TYPES, type Run, type RunEventType } from '@/lib/api-schemas';

import { cancelRun, createRun, getRun, runEventsUrl } from '../api/runs';
import type { ExperimentOrigin, RunRequest } from '../lib/experiment-block';
import { initialRunState, runReducer, type RunState } from '../lib/run-state';
import { forgetRunId, loadSavedRunId, saveRunId } from '../lib/saved-runs';

/** Charts and labels re-render at most this often (≤ 10 Hz). */
export const RENDER_INTERVAL_MS = 100;
/** How soon a run's page may draw `next`, having drawn `drawn`: new figures of a run being
 *  warmed up or measured wait for the next phase (held: an infinite interval); a new phase, a
 *  connection lost or found, a note or the result are drawn at once. The page runs on the
 *  machine it measures: drawing new figures every 2 s with the label's dot pulsing took about
 *  17 % of a core, and the stability check called every such run disturbed; with the dot still,
 *  half of them; with the figures held, none (results/tab-before.md, tab-still.md, tab.md). */
export function renderIntervalFor(next: RunState, drawn: RunState): number {
  const measuring = next.phase === 'warmup' || next.phase === 'measure';
  const onlyFigures =
    next.phase === drawn.phase && next.connection === drawn.connection && next.notes === drawn.notes && next.result === drawn.result;
  return measuring && onlyFigures ? Number.POSITIVE_INFINITY : RENDER_INTERVAL_MS;
}
const MAX_RESUBSCRIBE_ATTEMPTS = 8;

function isFinished(run: Run): boolean {
  return run.status === 'done' || run.status === 'failed' || run.status === 'cancelled';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface UseRun {
  state: RunState;
  /** Queues a run; resolves to its id, or null when the API refused it. */
  start: () => Promise<string | null>;
  cancel: () => Promise<void>;
}

/**
 * A run's state fed by its SSE stream, shared by the widget's own runs and a permalink's. The
 * browser's EventSource reconnects by itself with Last-Event-ID; if it gives up (an HTTP
 * error while the backend restarts) we ask GET /api/runs/{id} and, while the run is still
 * live, open a new stream with ?last_event_id=N after a back-off.
 */
function useRunStream() {
  const [state, dispatch, getState] = useThrottledReducer(runReducer, initialRunState, renderIntervalFor);
  const source = useRef<EventSource | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const attempts = useRef(0);
  const checking = useRef(false);

  const close = useCallback(() => {
    source.current?.close();
    source.current = null;
    if (retryTimer.current !== null) {
      clearTimeout(retryTimer.current);
      retryTimer.current = null;
    }
  }, []);

  /** Asks the API for the run's status; settles the widget if the run has ended. */
  const settle = useCallback(
    async (runId: string): Promise<Run | null> => {
      if (checking.current) return null;
      checking.current = true;
      try {
        const run = await getRun(runId);
        if (getState().runId === runId && isFinished(run)) {
          close();
          dispatch({ type: 'resolved', run });
        }
        return run;
      } catch {
        return null;
      } finally {
        checking.current = false;
      }
    },
    [close, dispatch, getState],
  );

  const subscribe = useCallback(
    (runId: string) => {
      const connect = () => {
        close();
        const lastSeq = getState().lastSeq;
        const es = new EventSource(runEventsUrl(runId, lastSeq > 0 ? lastSeq : undefined));
        source.current = es;
        dispatch({ type: 'connection', state: 'connecting' });

        const onFrame = (type: RunEventType) => (event: MessageEvent<string>) => {
          if (source.current !== es) return;
          const parsed = parseRunEventFrame(type, event.lastEventId, event.data);
          if (!parsed.ok) {
            dispatch({ type: 'bad-event', error: parsed.error });
            return;
          }
          attempts.current = 0;
          dispatch({ type: 'event', frame: parsed.frame });
          if (type === 'done' || type === 'failed') close(); // the stream ends here
        };
        for (const type of RUN_EVENT_TYPES) {
          es.addEventListener(type, onFrame(type) as EventListener);
        }

        es.onopen = () => {
          if (source.current === es) dispatch({ type: 'connection', state: 'open' });
        };
        es.onerror = () => {
          if (source.current !== es) return;
          dispatch({ type: 'connection', state: 'reconnecting' });
          if (es.readyState !== EventSource.CLOSED) {
            // The browser retries with Last-Event-ID; meanwhile check the run did not
            // end without a final event (e.g. cancelled elsewhere).
            void settle(runId);
            return;
          }
          source.current = null;
          void settle(runId).then((run) => {
            if (getState().runId !== runId || (run && isFinished(run))) return;
            attempts.current += 1;
            if (attempts.current > MAX_RESUBSCRIBE_ATTEMPTS) {
              dispatch({ type: 'note', note: { key: 'notes.lostStream' } });
              dispatch({ type: 'connection', state: 'closed' });
              return;
            }
            const delay = Math.min(10_000, 500 * 2 ** attempts.current);
            retryTimer.current = setTimeout(() => {
              retryTimer.current = null;
              if (getState().runId === runId) connect();
            }, delay);
          });
        };
      };
      attempts.current = 0; // a new subscription gets every attempt again
      connect();
    },
    [close, dispatch, getState, settle],
  );

  useEffect(() => close, [close]);

  return { state, dispatch, getState, subscribe, close };
}

/**
 * One benchmark run: POST /api/runs, then the run's SSE stream (useRunStream). `origin` (the
 * lesson and block, when known) goes with the run for the class board.
 */
export function useRun(experimentKey: string, request: RunRequest, origin?: ExperimentOrigin): UseRun {
  const { state, dispatch, getState, subscribe, close } = useRunStream();

  const start = useCallback(async () => {
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
      subscribe(created.id);
      return created.id;
    } catch (error) {
      dispatch({ type: 'submit-failed', reason: errorText(error) });
      return null;
    }
  }, [close, dispatch, experimentKey, request, origin, subscribe]);

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
        subscribe(run.id);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) forgetRunId(experimentKey);
      });
    return () => {
      controller.abort();
    };
  }, [experimentKey, dispatch, getState, subscribe]);

  return { state, start, cancel };
}

/**
 * A run known by its id (a permalink): its stream from event #1, which replays a finished run
 * whole and follows a queued or running one live. `run` is GET /api/runs/{id}'s answer (keep
 * it stable: another answer attaches again and replays from #1); the stream starts once it is
 * there.
 */
export function useFollowRun(run: Run | undefined): RunState {
  const { state, dispatch, subscribe, close } = useRunStream();
  useEffect(() => {
    if (!run) return;
    dispatch({ type: 'attach', run });
    subscribe(run.id);
    return close;
  }, [run, dispatch, subscribe, close]);
  return state;
}
