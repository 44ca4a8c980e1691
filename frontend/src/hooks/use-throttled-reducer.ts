import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Like useReducer, but the reducer runs on every action at once (so decisions
 * such as de-duplicating replayed SSE events see the latest state) while React
 * re-renders at most once per `intervalMs`. Charts therefore update at ≤ 10 Hz
 * even when a reconnect replays hundreds of events in one burst. `intervalMs` may
 * depend on the state to draw and the state drawn last, and may be infinite: that state is
 * held until one comes that may be drawn (a run's page holds its new figures while its run is
 * measured, and draws anything else at once).
 */
export function useThrottledReducer<S, A>(
  reducer: (state: S, action: A) => S,
  initialState: S,
  intervalMs: number | ((next: S, drawn: S) => number) = 100,
): [S, (action: A) => void, () => S] {
  const stateRef = useRef(initialState);
  const [rendered, setRendered] = useState(initialState);
  const drawn = useRef(initialState);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastFlush = useRef(0);

  const flush = useCallback(() => {
    timer.current = null;
    lastFlush.current = Date.now();
    drawn.current = stateRef.current;
    setRendered(stateRef.current);
  }, []);

  const due = useRef(0);

  const dispatch = useCallback(
    (action: A) => {
      const next = reducer(stateRef.current, action);
      if (next === stateRef.current) return;
      stateRef.current = next;
      const interval = typeof intervalMs === 'number' ? intervalMs : intervalMs(next, drawn.current);
      // Held: a render already planned still comes (and draws the latest state), none is added
      if (!Number.isFinite(interval)) return;
      const at = Math.max(Date.now(), lastFlush.current + interval);
      // A render already planned stays, unless this state may be drawn sooner (a run whose
      // measuring ended is drawn at once, not two seconds on).
      if (timer.current !== null) {
        if (at >= due.current) return;
        clearTimeout(timer.current);
      }
      due.current = at;
      timer.current = setTimeout(flush, at - Date.now());
    },
    [reducer, intervalMs, flush],
  );

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const getState = useCallback(() => stateRef.current, []);
  return [rendered, dispatch, getState];
}
