import { act, renderHook, waitFor } from '@testing-library/react';

import { NO_RUN, type FollowedRun, type RunStreamAction } from '@/lib/run-stream';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aRun, progress } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';

import { useRunStream } from './use-run-stream';

/** A state that keeps what the stream told it, in words. */
interface Told extends FollowedRun {
  told: string[];
}

function tell(state: Told, action: RunStreamAction): Told {
  const word = action.type === 'event' ? action.frame.type : action.type === 'connection' ? action.state : action.type;
  const lastSeq = action.type === 'event' ? action.frame.seq : state.lastSeq;
  return { ...state, lastSeq, told: [...state.told, word] };
}

function followR1(maxAttempts = 2) {
  const hook = renderHook(() => useRunStream<Told, never>(tell, { ...NO_RUN, runId: 'r1', told: [] }, { renderInterval: 0, maxAttempts }));
  act(() => {
    hook.result.current.follow('r1');
  });
  return hook;
}

describe('useRunStream', () => {
  it('feeds the run’s events to the reducer and closes the stream after the last', async () => {
    const { result } = followR1();
    const es = FakeEventSource.latest();
    expect(es.url).toBe('/api/runs/r1/events');
    act(() => {
      es.open();
      es.emit('progress', progress(1, 'measure'), 1);
      es.emit('checked', { build: { status: 'compiled', seconds: 1.2, diagnostics: [] }, checks: [] }, 2);
    });
    await waitFor(() => {
      expect(result.current.state.told).toEqual(['connecting', 'open', 'progress', 'checked']);
    });
    expect(es.closed).toBe(true);
  });

  it('opens a stream the browser gave up on again from the last event, and at last gives the run up', async () => {
    vi.useFakeTimers();
    try {
      mockFetch({ 'GET /api/runs/r1': aRun({ status: 'running' }) });
      const { result } = followR1(1);
      const first = FakeEventSource.latest();
      act(() => {
        first.emit('progress', progress(1, 'measure'), 4);
        first.fail(true);
      });
      await act(() => vi.advanceTimersByTimeAsync(1_000)); // the back-off after one attempt
      const second = FakeEventSource.latest();
      expect(second).not.toBe(first);
      expect(second.url).toBe('/api/runs/r1/events?last_event_id=4');
      act(() => {
        second.fail(true);
      });
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(FakeEventSource.latest()).toBe(second);
      expect(result.current.getState().told.at(-1)).toBe('stream-lost');
    } finally {
      vi.useRealTimers();
    }
  });

  it('settles a run that ended while its stream was away', async () => {
    mockFetch({ 'GET /api/runs/r1': aRun({ status: 'cancelled' }) });
    const { result } = followR1();
    const es = FakeEventSource.latest();
    act(() => {
      es.fail(true);
    });
    await waitFor(() => {
      expect(result.current.state.told.at(-1)).toBe('resolved');
    });
    expect(es.closed).toBe(true);
  });
});
