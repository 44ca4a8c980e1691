import { act, render, screen } from '@testing-library/react';

import { FakeIntersectionObserver } from '@/testing/fake-intersection-observer';

import { NEAR_VIEWPORT_DWELL_MS, NEAR_VIEWPORT_MARGIN, useNearViewport } from './use-near-viewport';

function Probe() {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  return (
    <div ref={ref} data-testid="probe">
      {near ? 'near' : 'far'}
    </div>
  );
}

describe('useNearViewport', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeIntersectionObserver.reset();
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('is far until the element has been in view a moment, then near for good', () => {
    render(<Probe />);
    const probe = screen.getByTestId('probe');
    expect(probe).toHaveTextContent('far');
    expect(FakeIntersectionObserver.instances[0]?.rootMargin).toBe(NEAR_VIEWPORT_MARGIN);

    act(() => {
      FakeIntersectionObserver.bringNear(probe);
      vi.advanceTimersByTime(NEAR_VIEWPORT_DWELL_MS - 1);
    });
    expect(probe).toHaveTextContent('far');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(probe).toHaveTextContent('near');
    // Once near, nothing is watched any more.
    expect(FakeIntersectionObserver.watching()).toBe(0);
  });

  it('ignores an element that only passes through the view', () => {
    render(<Probe />);
    const probe = screen.getByTestId('probe');
    act(() => {
      FakeIntersectionObserver.bringNear(probe);
      vi.advanceTimersByTime(NEAR_VIEWPORT_DWELL_MS / 2);
      FakeIntersectionObserver.takeAway(probe);
      vi.advanceTimersByTime(NEAR_VIEWPORT_DWELL_MS * 10);
    });
    expect(probe).toHaveTextContent('far');
    expect(FakeIntersectionObserver.watching()).toBe(1);
  });

  it('stops watching an element that goes away before it came near', () => {
    const { unmount } = render(<Probe />);
    act(() => {
      FakeIntersectionObserver.bringNear(screen.getByTestId('probe'));
    });
    unmount();
    expect(FakeIntersectionObserver.watching()).toBe(0);
    act(() => {
      vi.advanceTimersByTime(NEAR_VIEWPORT_DWELL_MS * 2); // the pending timer was cleared: no update after unmount
    });
  });

  it('is near at once where there is no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe />);
    expect(screen.getByTestId('probe')).toHaveTextContent('near');
  });
});
