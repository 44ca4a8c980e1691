import { act, renderHook } from '@testing-library/react';

import { FALLBACK_THEMES } from '@/lib/chart';

import { useChartTheme } from './use-chart-theme';

describe('useChartTheme', () => {
  afterEach(() => {
    const root = document.documentElement;
    delete root.dataset.theme;
    root.style.removeProperty('--color-text');
  });

  it('reads the page colours and follows a change of data-theme', async () => {
    const root = document.documentElement;
    root.dataset.theme = 'light';
    root.style.setProperty('--color-text', '#101010');
    const { result, unmount } = renderHook(() => useChartTheme());
    expect(result.current.text).toBe('#101010');
    expect(result.current.grid).toBe(FALLBACK_THEMES.light.grid);

    const before = result.current;
    await act(async () => {
      root.style.setProperty('--color-text', '#eeeeee');
      root.dataset.theme = 'dark';
      await Promise.resolve();
    });
    expect(result.current).not.toBe(before);
    expect(result.current.text).toBe('#eeeeee');
    // A dark page without the property falls back to the dark look, not the light one.
    expect(result.current.grid).toBe(FALLBACK_THEMES.dark.grid);
    unmount();
  });
});
