import type { Comparison } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aPoint } from '@/testing/fixtures';


import { changeWords, entryLabel, isRoundComparison, spreadOf, summariseEntries, summariseRounds, widerThanNeeded } from './round-comparison';

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
      level: null,
    });
    // The failed round counts for nothing; two rounds' median is their mean.
    expect(b).toMatchObject({ label: 'c-epoll (your edit)', measured: 2, qps: { median: 59_000, min: 58_000, max: 60_000 }, p99_us: { median: 750, min: 700, max: 800 } });
  });

  it('has no figures for an entry before its first round ends', () => {
    const [, b] = summariseRounds(entries, 3, points.slice(0, 1), t);
    expect(b).toMatchObject({ measured: 0, qps: null, p99_us: null });
  });
});

describe('summariseEntries', () => {
  it('reads the backend’s medians with their intervals in place of the range', () => {
    const qps = { estimate: 52_000, low: 50_000, high: 54_000, level: 0.9375, count: 5, method: 'median_order_statistics' as const };
    const [a] = summariseEntries([{ server: original, qps, p99_us: null }], 6, t);
    expect(a).toEqual({
      entry: original,
      label: 'c-epoll',
      measured: 5,
      rounds: 6,
      qps: { median: 52_000, min: 50_000, max: 54_000 },
      p99_us: null,
      level: 0.9375,
    });
  });
});

describe('changeWords', () => {
  const verdict = (metric: Comparison['metric'], call: Comparison['call'], low: number, high: number): Comparison => ({
    subject: edit,
    reference: original,
    metric,
    call,
    change: { estimate: (low + high) / 2, low, high, level: 0.95, count: 6, method: 'paired_log_ratio_t' },
  });

  it('says a difference with its interval, nearest bound first', () => {
    expect(changeWords(verdict('qps', 'higher', 0.031, 0.089), t)).toBe('3.1 % to 8.9 % more requests per second');
    expect(changeWords(verdict('qps', 'lower', -0.12, -0.02), t)).toBe('2 % to 12 % fewer requests per second');
    expect(changeWords(verdict('p99_us', 'lower', -0.3, -0.1), t)).toBe('a p99 10 % to 30 % lower');
  });

  it('says no difference this host can detect, and how wide the interval was', () => {
    const none = verdict('qps', 'no_difference', -0.04, 0.11);
    expect(changeWords(none, t)).toBe('no difference in throughput this host can detect (±11 %)');
    expect(widerThanNeeded(none)).toBe(true);
    expect(widerThanNeeded(verdict('qps', 'no_difference', -0.01, 0.02))).toBe(false);
    expect(widerThanNeeded(verdict('qps', 'higher', 0.06, 0.2))).toBe(false);
  });

  it('says when too few rounds ran undisturbed', () => {
    expect(changeWords({ ...verdict('p99_us', 'too_few', 0, 0), change: null }, t)).toBe('too few rounds run undisturbed to compare p99');
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
