import { i18next } from '@/lib/i18n';
import { aPoint } from '@/testing/fixtures';

import { entryLabel, isRoundComparison, relativeChange, spreadOf, summariseRounds } from './round-comparison';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const entries = ['c-epoll', 'variant:0123456789abcdef0123456789abcdef'];
const [original, edit] = entries as [string, string];

describe('summariseRounds', () => {
  // Interleaved, as the sweep runs them: original round 1, the edit round 1, original round 2…
  const points = [
    aPoint({ server: original, value: 1, qps: 50_000, p99_us: 900 }),
    aPoint({ server: edit, value: 1, qps: 60_000, p99_us: 700 }),
    aPoint({ server: original, value: 2, qps: 54_000, p99_us: 1000 }),
    aPoint({ server: edit, value: 2, qps: 58_000, p99_us: 800 }),
    aPoint({ server: original, value: 3, qps: 52_000, p99_us: 950 }),
    aPoint({ server: edit, value: 3, qps: 0, p99_us: 0, status: 'failed', valid: null, reason: 'the server crashed' }),
  ];

  it('gives each entry its median, least and greatest over the rounds it measured', () => {
    const [a, b] = summariseRounds(entries, 3, points, t);
    expect(a).toEqual({
      entry: original,
      label: 'c-epoll (original)',
      measured: 3,
      rounds: 3,
      qps: { median: 52_000, min: 50_000, max: 54_000 },
      p99_us: { median: 950, min: 900, max: 1000 },
    });
    // The failed round counts for nothing; two rounds' median is their mean.
    expect(b).toMatchObject({ label: 'c-epoll (your edit)', measured: 2, qps: { median: 59_000, min: 58_000, max: 60_000 }, p99_us: { median: 750, min: 700, max: 800 } });
    expect(relativeChange(b!.qps, a!.qps)).toBeCloseTo(59 / 52 - 1);
  });

  it('has no figures for an entry before its first round ends', () => {
    const [, b] = summariseRounds(entries, 3, points.slice(0, 1), t);
    expect(b).toMatchObject({ measured: 0, qps: null, p99_us: null });
    expect(relativeChange(b!.qps, { median: 1, min: 1, max: 1 })).toBeNull();
  });
});

describe('spreadOf', () => {
  it('is the median, least and greatest, in any order', () => {
    expect(spreadOf([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(spreadOf([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4 });
    expect(spreadOf([7])).toEqual({ median: 7, min: 7, max: 7 });
    expect(spreadOf([])).toBeNull();
  });
});

describe('entryLabel', () => {
  it('names the original and the edit', () => {
    expect(entryLabel(original, entries, t)).toBe('c-epoll (original)');
    expect(entryLabel(edit, entries, t)).toBe('c-epoll (your edit)');
    expect(entryLabel('c-poll', ['c-poll', 'c-epoll'], t)).toBe('c-poll');
    expect(entryLabel(edit, [edit], t)).toBe('edit 01234567 (your edit)');
    expect(entryLabel('variant:b', [original, 'variant:a', 'variant:b'], t)).toBe('c-epoll (your edit 2)');
  });

  it('knows a comparison in rounds', () => {
    expect(isRoundComparison({ vary: 'round' })).toBe(true);
    expect(isRoundComparison({ vary: 'connections' })).toBe(false);
  });
});
