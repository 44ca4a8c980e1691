import { describe, expect, it } from 'vitest';

import type { Run } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aPoint, aRun, aSweep, doneData } from '@/testing/fixtures';

import { compareTable, runRow, shortTime, sweepRows } from './compare';

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
  it('exports each result with its server id and raw figures', () => {
    const table = compareTable([runRow(run({}), t, 'en')]);
    expect(table.columns).toEqual(['result', 'server', 'qps', 'p50_us', 'p99_us', 'cpu_percent_of_one_core', 'rss_bytes', 'threads', 'note']);
    expect(table.rows[0]?.slice(1, 5)).toEqual(['c-epoll', 51234.5, 120, 900]);
  });
});
