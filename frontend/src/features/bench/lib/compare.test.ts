import { describe, expect, it } from 'vitest';

import type { Comparison, Run } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { runInterval } from '@/lib/verdict';
import { aPoint, aRun, aSweep, doneData, noise31 } from '@/testing/fixtures';

import { compareTable, comparedRuns, referenceRow, runRow, rowSpread, shortTime, sweepRows, verdictWords } from './compare';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const run = (over: Partial<Run>): Run => aRun({ created_at: '2026-11-25T10:01:00Z', ...over });

describe('runRow', () => {
  it('takes a valid run’s headline figures', () => {
    const row = runRow(run({}), t, 'en');
    expect(row).toMatchObject({ key: 'r1', server: 'c-epoll', qps: 51234.5, p50_us: 120, p99_us: 900, cpu_percent: 87.5, note: null });
    expect(row.label).toBe(`c-epoll · ${shortTime('2026-11-25T10:01:00Z', 'en')}`);
  });

  it('shows no figure for an invalid or unfinished run, and says why', () => {
    expect(runRow(run({ result: { ...doneData, valid: false, invalid_reason: 'errors' } }), t, 'en')).toMatchObject({ qps: null, note: 'invalid: errors' });
    expect(runRow(run({ status: 'failed', result: null }), t, 'en')).toMatchObject({ qps: null, note: 'failed' });
    expect(runRow(run({ result: null }), t, 'en')).toMatchObject({ qps: null, note: 'no result recorded' });
  });
});

describe('sweepRows', () => {
  it('makes each point a row named by server and value', () => {
    const sweep = aSweep({
      points: [
        aPoint({ server: 'c-epoll', value: 10, run_id: 'a', qps: 100, p50_us: 5, p99_us: 9 }),
        aPoint({ server: 'c-epoll', value: 100, run_id: null, status: 'skipped', valid: null, reason: 'too many' }),
      ],
    });
    const rows = sweepRows(sweep, t, 'en');
    expect(rows.map((r) => [r.key, r.label.split(' · ')[0], r.qps, r.note])).toEqual([
      ['s1:c-epoll:10', 'c-epoll @ 10 connections', 100, null],
      ['s1:c-epoll:100', 'c-epoll @ 100 connections', null, 'too many'],
    ]);
  });
});

describe('compareTable', () => {
  it('exports each result with its server id, raw figures, run-to-run spread and verdict', () => {
    const noisy = run({ result: { ...doneData, host_noise: { ...noise31, sigma: 0.05 } } });
    const table = compareTable([runRow(noisy, t, 'en')], () => 'the reference');
    expect(table.columns).toEqual(['result', 'server', 'qps', 'qps_run_to_run_95', 'qps_low_95', 'qps_high_95', 'p50_us', 'p99_us', 'cpu_percent_of_one_core', 'rss_bytes', 'threads', 'against_reference', 'note']);
    const [low, high] = runInterval(51234.5, { ...noise31, sigma: 0.05 });
    expect(table.rows[0]?.slice(1, 8)).toEqual(['c-epoll', 51234.5, rowSpread({ ...noise31, sigma: 0.05 }), low, high, 120, 900]);
    expect(low).toBeLessThan(51234.5);
    expect(high).toBeGreaterThan(51234.5);
    expect(table.rows[0]?.at(-2)).toBe('the reference');
  });
});

describe('verdicts against the reference', () => {
  const rows = [
    runRow(run({ id: 'never', status: 'cancelled', result: null }), t, 'en'),
    runRow(run({ id: 'first' }), t, 'en'),
    runRow(run({ id: 'second' }), t, 'en'),
    runRow(run({ id: 'third' }), t, 'en'),
    runRow(run({ id: 'fourth' }), t, 'en'),
  ];
  const verdict = (subject: string, call: Comparison['call'], low: number, high: number): Comparison => ({
    subject,
    reference: 'first',
    metric: 'qps',
    call,
    change: call === 'too_few' ? null : { estimate: (low + high) / 2, low, high, level: 0.95, count: 1, method: 'host_noise' },
  });
  const verdicts = [verdict('second', 'lower', -0.3, -0.1), verdict('third', 'too_few', 0, 0)];

  it('asks for every run with figures once, the first of them as the reference', () => {
    expect(comparedRuns(rows)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(comparedRuns(rows.slice(0, 2))).toEqual([]);
    expect(referenceRow(rows)?.runId).toBe('first');
  });

  it('words each row’s verdict, and says why one has none', () => {
    const reference = referenceRow(rows);
    const words = rows.slice(1).map((row) => verdictWords(row, reference, verdicts, t));
    expect(words).toEqual([
      'the reference',
      '10 % to 30 % fewer requests per second',
      'no verdict yet: neither runner knows its run-to-run spread',
      '—',
    ]);
  });

  it('gives no verdict between runs profiled differently: profiling costs speed', () => {
    const profiled = runRow(run({ id: 'fifth', request: { ...aRun().request, profile: 'cpu' } }), t, 'en');
    expect(profiled.profile).toBe('cpu');
    const withVerdict = [...verdicts, verdict('fifth', 'higher', 0.1, 0.2)];
    expect(verdictWords(profiled, referenceRow(rows), withVerdict, t)).toBe('not compared: profiled as cpu, the reference as throughput (profiling costs speed)');
  });
});
