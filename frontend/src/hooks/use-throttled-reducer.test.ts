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
});
