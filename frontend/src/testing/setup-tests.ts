import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';

import { i18next, i18nReady, LATER_NAMESPACES, loadStrings } from '@/lib/i18n';

import { FakeEventSource } from './fake-event-source';

// Chart.js needs a real canvas: in unit tests the chart component is a stub that
// exposes what it was given. Real charts are covered by the e2e test in Chromium.
vi.mock('react-chartjs-2', () => {
  interface StubProps {
    data: { datasets: { id?: string; label?: string; data: unknown[] }[] };
    datasetIdKey?: string;
    'aria-label'?: string;
  }
  const Stub = (props: StubProps) =>
    createElement('div', {
      'data-testid': 'chart-stub',
      'data-dataset-id-key': props.datasetIdKey,
      'data-datasets': JSON.stringify(props.data.datasets.map((d) => ({ id: d.id, n: d.data.length }))),
      'aria-label': props['aria-label'],
    });
  return { Line: Stub, Bar: Stub, Chart: Stub, Scatter: Stub };
});

// jsdom has no layout: scrolling (react-router's ScrollRestoration) is a no-op.
Object.defineProperty(window, 'scrollTo', { value: () => undefined, writable: true });

// Unit tests read the English strings, whatever the machine's locale.
beforeEach(async () => {
  await i18nReady;
  // A test draws a feature's components without the route or lazy import that fetches their
  // strings with them (loaded once; every later call resolves at once).
  await loadStrings(LATER_NAMESPACES);
  if (i18next.resolvedLanguage !== 'en') await i18next.changeLanguage('en');
  FakeEventSource.reset();
  vi.stubGlobal('EventSource', FakeEventSource);
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
