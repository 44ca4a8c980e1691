import { useCallback, useEffect, useRef } from 'react';

import { parseRunEventFrame, RUN_EVENT_TYPES, type Run } from '@/lib/api-schemas';
import { hasRunEnded, LAST_RUN_EVENTS, type FollowedRun, type RunStreamAction } from '@/lib/run-stream';
import { getRun, runEventsUrl } from '@/lib/runs-api';

import { useThrottledReducer } from './use-throttled-reducer';

export interface RunStreamOptions<S> {
  /** How often the state is drawn (useThrottledReducer's interval). */
  renderInterval: number | ((next: S, drawn: S) => number);
  /** How many times in a row a stream the browser gave up on is opened again. */
  maxAttempts: number;
}

export interface RunStream<S, A> {
  state: S;
  dispatch: (action: A | RunStreamAction) => void;
  getState: () => S;
  /** Opens the run's stream, from the event after the state's `lastSeq`. */
  follow: (runId: string) => void;
  /** Closes the stream (and any reopening planned). */
  close: () => void;
  /** Asks GET /api/runs/{id}; if the run has ended, closes the stream and dispatches
   *  `resolved`. Returns the run, or null if it could not be read. */
  settle: (runId: string) => Promise<Run | null>;
}

/**
 * One run's SSE stream feeding a reducer: the bench's runs and a variant's check run. The
 * browser's EventSource reconnects by itself with Last-Event-ID; if it gives up (an HTTP error
 * while the backend restarts) we ask GET /api/runs/{id} and, while the run is still live, open
 * a new stream with ?last_event_id=N after a back-off; after `maxAttempts` in a row the run is
 * given up on (`stream-lost`).
 */
export function useRunStream<S extends FollowedRun, A>(
  reducer: (state: S, action: A | RunStreamAction) => S,
  initialState: S,
  { renderInterval, maxAttempts }: RunStreamOptions<S>,
): RunStream<S, A> {
  const [state, dispatch, getState] = useThrottledReducer(reducer, initialState, renderInterval);
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

  const settle = useCallback(
    async (runId: string): Promise<Run | null> => {
      try {
        const run = await getRun(runId);
        if (getState().runId === runId && hasRunEnded(run)) {
          close();
          dispatch({ type: 'resolved', run });
        }
        return run;
      } catch {
        return null;
      }
    },
    [close, dispatch, getState],
  );

  /** settle() for the stream's errors, which may come faster than the API answers: one asks at
   *  a time (null to the others), so a back-off is planned once. */
  const settleOnce = useCallback(
    async (runId: string): Promise<Run | null> => {
      if (checking.current) return null;
      checking.current = true;
      try {
        return await settle(runId);
      } finally {
        checking.current = false;
      }
    },
    [settle],
  );

  const follow = useCallback(
    (runId: string) => {
      const connect = () => {
        close();
        const es = new EventSource(runEventsUrl(runId, getState().lastSeq));
        source.current = es;
        dispatch({ type: 'connection', state: 'connecting' });

        for (const type of RUN_EVENT_TYPES) {
          es.addEventListener(type, ((event: MessageEvent<string>) => {
            if (source.current !== es) return;
            const parsed = parseRunEventFrame(type, event.lastEventId, event.data);
            if (!parsed.ok) {
              dispatch({ type: 'bad-event', error: parsed.error });
              return;
            }
            attempts.current = 0;
            dispatch({ type: 'event', frame: parsed.frame });
            if (LAST_RUN_EVENTS.has(type)) close(); // the stream ends here
          }) as EventListener);
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
            void settleOnce(runId);
            return;
          }
          source.current = null;
          void settleOnce(runId).then((run) => {
            if (getState().runId !== runId || (run && hasRunEnded(run))) return;
            attempts.current += 1;
            if (attempts.current > maxAttempts) {
              dispatch({ type: 'stream-lost' });
              return;
            }
            retryTimer.current = setTimeout(() => {
              retryTimer.current = null;
              if (getState().runId === runId) connect();
            }, Math.min(10_000, 500 * 2 ** attempts.current));
          });
        };
      };
      attempts.current = 0; // a new run gets every attempt again
      connect();
    },
    [close, dispatch, getState, maxAttempts, settleOnce],
  );

  useEffect(() => close, [close]);

  return { state, dispatch, getState, follow, close, settle };
}
