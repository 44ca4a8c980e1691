import { act, renderHook } from '@testing-library/react';

import { useThrottledReducer } from './use-throttled-reducer';

describe('useThrottledReducer', () => {
  it('applies every action at once but renders at most once per interval', () => {
    vi.useFakeTimers();
    try {
      const reducer = vi.fn((s: number, a: number) => s + a);
      let renders = 0;
      const { result } = renderHook(() => {
        renders += 1;
        return useThrottledReducer(reducer, 0, 100);
      });
      const [, dispatch, getState] = result.current;
      const before = renders;
      act(() => {
        for (let i = 0; i < 50; i++) dispatch(1);
      });
      expect(getState()).toBe(50); // the reducer saw every action
      expect(result.current[0]).toBe(0); // but nothing rendered yet
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(result.current[0]).toBe(50);
      expect(renders - before).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes its interval from the state to draw and the state drawn, and draws sooner when it may', () => {
    vi.useFakeTimers();
    try {
      // Even numbers are "figures only" (drawn every 1000 ms); an odd one is news (10 ms).
      const interval = (next: number, drawn: number) => (next % 2 === 0 && next > drawn ? 1000 : 10);
      const { result } = renderHook(() => useThrottledReducer((s: number, a: number) => s + a, 0, interval));
      act(() => {
        result.current[1](1);
      });
      act(() => {
        vi.advanceTimersByTime(10);
      });
      expect(result.current[0]).toBe(1);
      act(() => {
        result.current[1](1);
      });
      act(() => {
        vi.advanceTimersByTime(980);
      });
      expect(result.current[0]).toBe(1); // figures wait a second after the last drawing
      act(() => {
        vi.advanceTimersByTime(10);
      });
      expect(result.current[0]).toBe(2);
      act(() => {
        result.current[1](2); // 4: figures, planned 1000 ms on
        result.current[1](1); // 5: news, drawn at once instead
      });
      act(() => {
        vi.advanceTimersByTime(10);
      });
      expect(result.current[0]).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds a state whose interval is infinite until one comes that may be drawn', () => {
    vi.useFakeTimers();
    try {
      // Below 10: "figures of a measured run", held; 10 and over: the run ended, drawn at once.
      const interval = (next: number) => (next < 10 ? Number.POSITIVE_INFINITY : 10);
      const { result } = renderHook(() => useThrottledReducer((s: number, a: number) => s + a, 0, interval));
      act(() => {
        result.current[1](1);
        result.current[1](1);
      });
      act(() => {
        vi.advanceTimersByTime(60_000);
      });
      expect(result.current[0]).toBe(0); // held, however long
      act(() => {
        result.current[1](8);
      });
      act(() => {
        vi.advanceTimersByTime(10);
      });
      expect(result.current[0]).toBe(10);
    } finally {
      vi.useRealTimers();
    }
  });
});
