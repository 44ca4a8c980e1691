import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Like useReducer, but the reducer runs on every action at once (so decisions
 * such as de-duplicating replayed SSE events see the latest state) while React
 * re-renders at most once per `intervalMs`. Charts therefore update at ≤ 10 Hz
 * even when a reconnect replays hundreds of events in one burst.
 */
export function useThrottledReducer<S, A>(
  reducer: (state: S, action: A) => S,
  initialState: S,
  intervalMs = 100,
): [S, (action: A) => void, () => S] {
  const stateRef = useRef(initialState);
  const [rendered, setRendered] = useState(initialState);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastFlush = useRef(0);

  const flush = useCallback(() => {
    timer.current = null;
    lastFlush.current = Date.now();
    setRendered(stateRef.current);
  }, []);

  const dispatch = useCallback(
    (action: A) => {
      const next = reducer(stateRef.current, action);
      if (next === stateRef.current) return;
      stateRef.current = next;
      if (timer.current !== null) return;
      const wait = Math.max(0, intervalMs - (Date.now() - lastFlush.current));
      timer.current = setTimeout(flush, wait);
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
