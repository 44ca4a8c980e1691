import { act, render, screen } from '@testing-library/react';

import { NEAR_VIEWPORT_DWELL_MS } from '@/hooks/use-near-viewport';
import { FakeIntersectionObserver } from '@/testing/fake-intersection-observer';

import { WhenNearViewport } from './when-near-viewport';

describe('WhenNearViewport', () => {
  it('holds the place with a labelled box, then renders its children once in view', () => {
    vi.useFakeTimers();
    FakeIntersectionObserver.reset();
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    render(
      <WhenNearViewport label="Benchmark widget…" minHeight="30rem">
        <p>the widget</p>
      </WhenNearViewport>,
    );
    const placeholder = screen.getByTestId('not-yet-loaded');
    expect(placeholder).toHaveTextContent('Benchmark widget…');
    expect(placeholder).toHaveStyle({ minHeight: '30rem' });
    expect(screen.queryByText('the widget')).not.toBeInTheDocument();

    act(() => {
      FakeIntersectionObserver.bringNear(placeholder);
      vi.advanceTimersByTime(NEAR_VIEWPORT_DWELL_MS);
    });
    expect(screen.getByText('the widget')).toBeInTheDocument();
    expect(screen.queryByTestId('not-yet-loaded')).not.toBeInTheDocument();
    vi.useRealTimers();
  });
});
