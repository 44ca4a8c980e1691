/**
 * The chart colours of the theme in force, re-read whenever `<html data-theme>` changes (the
 * theme switch, or the system's preference): a chart puts the theme in its options' inputs, so
 * a switch redraws it in the new colours without a reload.
 */
import { useSyncExternalStore } from 'react';

import { applyChartDefaults, FALLBACK_THEMES, readChartTheme, type ChartTheme } from '@/lib/chart';

let current: ChartTheme | null = null;
let stale = true;
// While no chart watches the page, a change goes unobserved: each read then looks afresh.
let watchers = 0;

function same(a: ChartTheme, b: ChartTheme): boolean {
  return a.text === b.text && a.muted === b.muted && a.grid === b.grid && a.surface === b.surface;
}

/** The theme now, as one object until it changes (useSyncExternalStore compares by identity). */
export function chartThemeSnapshot(): ChartTheme {
  if (stale || current === null || watchers === 0) {
    const fresh = readChartTheme();
    if (current === null || !same(current, fresh)) {
      current = fresh;
      applyChartDefaults(fresh);
    }
    stale = false;
  }
  return current;
}

function subscribe(onChange: () => void): () => void {
  watchers += 1;
  const observer = new MutationObserver(() => {
    stale = true;
    onChange();
  });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'style', 'class'] });
  return () => {
    watchers -= 1;
    observer.disconnect();
  };
}

export function useChartTheme(): ChartTheme {
  return useSyncExternalStore(subscribe, chartThemeSnapshot, () => FALLBACK_THEMES.light);
}
