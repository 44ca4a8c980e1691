/**
 * Light or dark: the reader's preference (`system`, `light`, `dark`) is kept in localStorage
 * (validated with zod) and shared between tabs; `system` follows the operating system's
 * `prefers-color-scheme` live. The theme in force is `<html data-theme="light|dark">`, which
 * global.css turns into colours and the charts read (with their custom properties) from the
 * root element.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { z } from 'zod';

import { readStored, writeStored } from '@/lib/storage';

export const THEME_KEY = 'c10klab:theme:v1';
const CHANGE_EVENT = 'c10klab:theme-change';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export const themePreferences = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof themePreferences)[number];
export type Theme = 'light' | 'dark';

const storedSchema = z.object({ version: z.literal(1), preference: z.enum(themePreferences) });

export function readThemePreference(): ThemePreference {
  return readStored(THEME_KEY, storedSchema, { version: 1, preference: 'system' }).preference;
}

export function setThemePreference(preference: ThemePreference): void {
  if (readThemePreference() === preference) return;
  writeStored(THEME_KEY, { version: 1, preference });
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function darkQuery(): MediaQueryList | null {
  // Old browsers and jsdom have no matchMedia: they are light.
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
}

export function systemTheme(): Theme {
  return darkQuery()?.matches ? 'dark' : 'light';
}

/** The theme a preference means now. */
export function resolveTheme(preference: ThemePreference): Theme {
  return preference === 'system' ? systemTheme() : preference;
}

/** Sets `data-theme` (and the browser's own colour scheme, for scroll bars and form controls). */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (root.dataset.theme === theme) return;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}

/** Called once before the first render (main.tsx), so the page is never drawn in the wrong theme. */
export function applyStoredTheme(): void {
  applyTheme(resolveTheme(readThemePreference()));
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === THEME_KEY) onChange();
  };
  const query = darkQuery();
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGE_EVENT, onChange);
  query?.addEventListener('change', onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGE_EVENT, onChange);
    query?.removeEventListener('change', onChange);
  };
}

/** A string snapshot, so useSyncExternalStore sees a change of either the preference or the system. */
function snapshot(): `${ThemePreference}:${Theme}` {
  const preference = readThemePreference();
  return `${preference}:${resolveTheme(preference)}`;
}

/**
 * The reader's preference, the theme in force, and a setter. The component that uses it keeps
 * `<html data-theme>` in step (mount it once, in the app's layout).
 */
export function useTheme(): { preference: ThemePreference; theme: Theme; setPreference: (p: ThemePreference) => void } {
  const current = useSyncExternalStore(subscribe, snapshot, () => 'system:light' as const);
  const [preference, theme] = current.split(':') as [ThemePreference, Theme];
  useEffect(() => {
    applyTheme(theme);
  }, [theme]);
  return { preference, theme, setPreference: setThemePreference };
}
