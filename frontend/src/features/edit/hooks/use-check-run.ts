import { useCallback, useEffect, useRef } from 'react';

import { useThrottledReducer } from '@/hooks/use-throttled-reducer';
import { parseRunEventFrame, RUN_EVENT_TYPES, type Run, type RunEventType } from '@/lib/api-schemas';

import { cancelRun, createVariant, getRun, runEventsUrl, type VariantCreated } from '../api/variants';
import { checkReducer, initialCheckState, isFinished, type CheckState } from '../lib/check-state';
import { describeRefusal } from '../lib/refusal';

/** A few events per build: render each as it comes, but a replayed run in one go. */
const RENDER_INTERVAL_MS = 50;
const MAX_RESUBSCRIBE_ATTEMPTS = 6;
/** The events after which a check run's stream ends (`done`: an exercise's, measured). */
const LAST_EVENTS: ReadonlySet<RunEventType> = new Set(['checked', 'failed', 'done']);

function ended(run: Run): boolean {
  return run.status === 'done' || run.status === 'failed' || run.status === 'cancelled';
}

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
 * /api/variants, then its check run's SSE stream. The
 * browser's EventSource resumes with Last-Event-ID by itself; if it gives up, GET
 * /api/runs/{id} says whether the run ended, and a live one is followed again from the last
 * event after a back-off (as the bench's runs are).
 */
export function useCheckRun(): UseCheckRun {
  const [state, dispatch, getState] = useThrottledReducer(checkReducer, initialCheckState, RENDER_INTERVAL_MS);
  const source = useRef<EventSource | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const attempts = useRef(0);

  const close = useCallback(() => {
    source.current?.close();
    source.current = null;
    if (retryTimer.current !== null) clearTimeout(retryTimer.current);
    retryTimer.current = null;
  }, []);

  /** Settles the state from the run's record; returns it (null if it could not be read). */
  const settle = useCallback(
    async (runId: string): Promise<Run | null> => {
      try {
        const run = await getRun(runId);
        if (getState().runId === runId && ended(run)) {
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

  const follow = useCallback(
    (runId: string) => {
      const connect = () => {
        close();
        const es = new EventSource(runEventsUrl(runId, getState().lastSeq));
        source.current = es;
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
            if (LAST_EVENTS.has(type)) close();
          }) as EventListener);
        }
        es.onerror = () => {
          if (source.current !== es) return;
          if (es.readyState !== EventSource.CLOSED) {
            void settle(runId); // the browser retries; meanwhile, did it end without a last event?
            return;
          }
          source.current = null;
          void settle(runId).then((run) => {
            if (getState().runId !== runId || (run && ended(run))) return;
            attempts.current += 1;
            if (attempts.current > MAX_RESUBSCRIBE_ATTEMPTS) {
              dispatch({ type: 'note', note: { kind: 'lost-connection' } });
              return;
            }
            retryTimer.current = setTimeout(() => {
              retryTimer.current = null;
              if (getState().runId === runId) connect();
            }, Math.min(10_000, 500 * 2 ** attempts.current));
          });
        };
      };
      attempts.current = 0;
      connect();
    },
    [close, dispatch, getState, settle],
  );

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

  useEffect(() => close, [close]);

  return { state, build, attach, cancel };
}
