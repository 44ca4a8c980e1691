import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { applyStoredTheme, readThemePreference, resolveTheme, THEME_KEY, useTheme } from './use-theme';

/** A controllable `prefers-color-scheme: dark` query, as window.matchMedia returns it. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => query);
  return {
    set(next: boolean) {
      query.matches = next;
      listeners.forEach((listener) => {
        listener();
      });
    },
    listeners,
  };
}

afterEach(() => {
  delete document.documentElement.dataset.theme;
  document.documentElement.style.colorScheme = '';
});

describe('theme preference', () => {
  it('is "system" when nothing (or something unreadable) is stored', () => {
    expect(readThemePreference()).toBe('system');
    window.localStorage.setItem(THEME_KEY, JSON.stringify({ version: 1, preference: 'sepia' }));
    expect(readThemePreference()).toBe('system');
  });

  it('resolves "system" from prefers-color-scheme, and light or dark as they are', () => {
    fakeSystem(true);
    expect(resolveTheme('system')).toBe('dark');
    expect(resolveTheme('light')).toBe('light');
    fakeSystem(false);
    expect(resolveTheme('system')).toBe('light');
    expect(resolveTheme('dark')).toBe('dark');
  });

  it('applies the stored preference to <html> before the first render', () => {
    fakeSystem(false);
    window.localStorage.setItem(THEME_KEY, JSON.stringify({ version: 1, preference: 'dark' }));
    applyStoredTheme();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });
});

describe('useTheme', () => {
  it('follows the system live while the preference is "system"', () => {
    const system = fakeSystem(false);
    const { result } = renderHook(() => useTheme());
    expect(result.current).toMatchObject({ preference: 'system', theme: 'light' });
    expect(document.documentElement.dataset.theme).toBe('light');

    act(() => {
      system.set(true);
    });
    expect(result.current.theme).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('keeps a chosen theme whatever the system does, and stores it', () => {
    const system = fakeSystem(true);
    const { result } = renderHook(() => useTheme());
    act(() => {
      result.current.setPreference('light');
    });
    expect(result.current).toMatchObject({ preference: 'light', theme: 'light' });
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(JSON.parse(window.localStorage.getItem(THEME_KEY) ?? 'null')).toEqual({ version: 1, preference: 'light' });

    act(() => {
      system.set(false);
      system.set(true);
    });
    expect(result.current.theme).toBe('light');

    act(() => {
      result.current.setPreference('system');
    });
    expect(result.current.theme).toBe('dark');
  });

  it('picks up a preference another tab stored', () => {
    fakeSystem(false);
    const { result } = renderHook(() => useTheme());
    act(() => {
      window.localStorage.setItem(THEME_KEY, JSON.stringify({ version: 1, preference: 'dark' }));
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_KEY }));
    });
    expect(result.current).toMatchObject({ preference: 'dark', theme: 'dark' });
  });

  it('stops listening to the system when unmounted', () => {
    const system = fakeSystem(false);
    const { unmount } = renderHook(() => useTheme());
    expect(system.listeners.size).toBe(1);
    unmount();
    expect(system.listeners.size).toBe(0);
  });
});
