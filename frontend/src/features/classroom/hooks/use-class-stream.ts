import { useEffect } from 'react';

import { useThrottledReducer } from '@/hooks/use-throttled-reducer';

import { classEventsUrl } from '../api/classroom';
import { classStreamReducer, initialClassStreamState, type ClassStreamState } from '../lib/class-stream-state';
import { CLASS_STREAM_EVENTS, parseClassStreamFrame } from '../lib/classroom-schemas';

/** Renders at most ten times a second: a presented run's replay on connect is one burst. */
const RENDER_INTERVAL_MS = 100;
/** When the browser gives up on the stream (a refused or broken connection), try again after
 *  this, doubling up to the maximum: the stream is the student's presence on the roster. */
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;

export function retryDelay(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempt);
}

/**
 * GET /api/classes/{id}/events: the class (paused, ended…), what the instructor presents, the
 * presented run's events or sweep table as they come, and whether the stream is open. Mount it
 * once per page: an open stream is what makes a student "online" on the roster. Null opens
 * nothing. The stream closes for good on `ended`.
 */
export function useClassStream(classId: string | null): ClassStreamState {
  const [state, dispatch] = useThrottledReducer(classStreamReducer, initialClassStreamState, RENDER_INTERVAL_MS);

  useEffect(() => {
    dispatch({ type: 'reset' });
    if (classId === null) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let stopped = false;

    const open = () => {
      const events = new EventSource(classEventsUrl(classId));
      source = events;
      events.onopen = () => {
        attempts = 0;
        dispatch({ type: 'open' });
      };
      events.onerror = () => {
        dispatch({ type: 'lost' });
        // CONNECTING: the browser reconnects by itself. CLOSED: it gave up, so we try again.
        if (events.readyState === EventSource.CLOSED && !stopped) {
          retry = setTimeout(open, retryDelay(attempts));
          attempts += 1;
        }
      };
      for (const name of CLASS_STREAM_EVENTS) {
        events.addEventListener(name, (event: MessageEvent<string>) => {
          const parsed = parseClassStreamFrame(name, event.data);
          if (!parsed.ok) {
            // One bad frame is skipped, not the stream: the next `class` or `presentation` heals it.
            console.warn(`[C10K Lab] class stream: ${parsed.error}`);
            return;
          }
          dispatch({ type: 'open' });
          dispatch(parsed.event);
          if (parsed.event.type === 'ended') {
            stopped = true;
            events.close();
          }
        });
      }
    };

    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [classId, dispatch]);

  return state;
}
