import { act, renderHook, waitFor } from '@testing-library/react';

import { aClassroomClass, aPresentation } from '@/testing/classroom-fixtures';
import { FakeEventSource } from '@/testing/fake-event-source';
import { progress } from '@/testing/fixtures';

import { retryDelay, useClassStream } from './use-class-stream';

function relay(es: FakeEventSource, seq: number, runId = 'r-9') {
  es.emit('run_event', { run_id: runId, seq, type: 'progress', data: progress(seq, 'measure') }, '');
}

describe('useClassStream', () => {
  it('opens the class’s stream and keeps the class and the presentation', async () => {
    const { result } = renderHook(() => useClassStream('c-1'));
    const es = FakeEventSource.latest();
    expect(es.url).toBe('/api/classes/c-1/events');
    act(() => {
      es.open();
      es.emit('class', aClassroomClass({ paused: true }), '');
      es.emit('presentation', aPresentation(), '');
    });
    await waitFor(() => {
      expect(result.current.presentation?.run_id).toBe('r-9');
    });
    expect(result.current).toMatchObject({ connected: true, ended: false, klass: { paused: true } });
  });

  it('relays the presented run’s frames once each, and starts over with a new presentation', async () => {
    const { result } = renderHook(() => useClassStream('c-1'));
    const es = FakeEventSource.latest();
    act(() => {
      es.emit('presentation', aPresentation(), '');
      relay(es, 1);
      relay(es, 2);
      relay(es, 2); // doubled
      relay(es, 3, 'r-other'); // not the presented run
    });
    await waitFor(() => {
      expect(result.current.runFrames.map((f) => f.seq)).toEqual([1, 2]);
    });
    // A reconnect (or a new presentation) sends `presentation` again, then the run from its start.
    act(() => {
      es.emit('presentation', aPresentation({ run_id: 'r-10', started_at: '2026-11-24T09:50:00+00:00' }), '');
      relay(es, 1, 'r-10');
    });
    await waitFor(() => {
      expect(result.current.presentation?.run_id).toBe('r-10');
    });
    expect(result.current.runFrames.map((f) => f.seq)).toEqual([1]);
  });

  it('skips a bad frame and keeps listening', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { result } = renderHook(() => useClassStream('c-1'));
    const es = FakeEventSource.latest();
    act(() => {
      es.emit('class', { id: 'c-1' }, '');
      es.emit('class', aClassroomClass(), '');
    });
    await waitFor(() => {
      expect(result.current.klass?.id).toBe('c-1');
    });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('closes for good when the class ends', async () => {
    const { result } = renderHook(() => useClassStream('c-1'));
    const es = FakeEventSource.latest();
    act(() => {
      es.open();
      es.emit('presentation', aPresentation(), '');
      es.emit('ended', {}, '');
    });
    await waitFor(() => {
      expect(result.current.ended).toBe(true);
    });
    expect(es.closed).toBe(true);
    expect(result.current.presentation).toBeNull();
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('opens again, later, when the browser gives up; and nothing at all without a class', () => {
    vi.useFakeTimers();
    try {
      const initialProps: { id: string | null } = { id: 'c-1' };
      const { rerender, result } = renderHook(({ id }: { id: string | null }) => useClassStream(id), { initialProps });
      act(() => {
        FakeEventSource.latest().fail(true);
      });
      expect(result.current.connected).toBe(false);
      act(() => {
        vi.advanceTimersByTime(retryDelay(0));
      });
      expect(FakeEventSource.instances).toHaveLength(2);
      rerender({ id: null });
      expect(FakeEventSource.latest().closed).toBe(true);
      act(() => {
        vi.advanceTimersByTime(60_000);
      });
      expect(FakeEventSource.instances).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
