import { describe, expect, it } from 'vitest';

import type { SweepPoint } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aPoint, aSweep } from '@/testing/fixtures';

import type { SweepRequest } from './experiment-block';
import {
  chartMetrics,
  describeSweepProgress,
  pointFigure,
  pointInterval,
  pointNote,
  refusedLoad,
  seriesLines,
  serverStyleIndexes,
  sweepProgress,
  sweepRequestOf,
  variesValue,
  wantsLogAxis,
} from './series';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const sweep: SweepRequest = {
  servers: ['c-select', 'c-epoll'],
  vary: 'connections',
  values: [10, 2000],
  base: {},
};

function point(server: string, value: number, extra: Partial<SweepPoint>): SweepPoint {
  return aPoint({ server, value, run_id: 'r', qps: 100, p99_us: 50, ...extra });
}

describe('series', () => {
  it('makes one line per server with a slot per value, gaps where no valid figure exists', () => {
    const points = [
      point('c-select', 10, { qps: 120 }),
      point('c-epoll', 10, { qps: 130 }),
      point('c-select', 2000, { status: 'skipped', run_id: null, qps: null, reason: 'at most 1018' }),
      point('c-epoll', 2000, { qps: 90, valid: false, reason: 'errors' }),
    ];
    expect(seriesLines(sweep, points, 'qps')).toEqual([
      { server: 'c-select', values: [120, null], unstable: [false, false], refused: [false, false], intervals: [null, null] },
      { server: 'c-epoll', values: [130, null], unstable: [false, false], refused: [false, false], intervals: [null, null] },
    ]);
    expect(seriesLines(sweep, points.slice(0, 1), 'p99_us')).toEqual([
      { server: 'c-select', values: [50, null], unstable: [false, false], refused: [false, false], intervals: [null, null] },
      { server: 'c-epoll', values: [null, null], unstable: [false, false], refused: [false, false], intervals: [null, null] },
    ]);
  });

  it('gives each valid point the interval of its figure, and none to what has no interval', () => {
    const noise = { low: 90, high: 111, estimate: 100, level: 0.95, count: 1, method: 'host_noise' as const };
    const repeated = { low: 40, high: 70, estimate: 50, level: 0.9375, count: 5, method: 'median_order_statistics' as const };
    const once = point('c-epoll', 10, { qps_interval: noise });
    const twice = point('c-epoll', 2000, { qps_interval: noise, p99_interval: repeated });
    expect(seriesLines(sweep, [once, twice], 'qps')[1]?.intervals).toEqual([[90, 111], [90, 111]]);
    expect(seriesLines(sweep, [once, twice], 'p99_us')[1]?.intervals).toEqual([null, [40, 70]]);
    expect(pointInterval({ ...once, calls_per_request: 1 }, 'calls_per_request')).toBeNull();
    expect(pointInterval({ ...once, valid: false }, 'qps')).toBeNull();
  });

  it('explains a point without a figure', () => {
    expect(pointNote(point('c-select', 2000, { status: 'skipped', reason: 'at most 1018' }), t)).toBe('not run: at most 1018');
    expect(pointNote(point('a', 1, { valid: false, reason: '3 requests got no reply' }), t)).toBe('invalid: 3 requests got no reply');
    expect(pointNote(point('a', 1, { noisy: true }), t)).toBe('noisy');
    expect(pointNote(point('a', 1, { status: 'running' }), t)).toBe('running');
    expect(pointFigure(point('a', 1, { status: 'running' }), 'qps')).toBeNull();
  });

  it('keeps a disturbed point\'s figure, marks it unstable and says why', () => {
    const why = "other processes used 38% of the server's CPU 0 while it was measured (limit 10%)";
    const disturbed = point('c-epoll', 2000, { qps: 40, stable: false, unstable_reason: why });
    expect(seriesLines(sweep, [point('c-epoll', 10, { stable: true }), disturbed], 'qps')[1]).toEqual({
      server: 'c-epoll',
      values: [100, 40],
      unstable: [false, true],
      refused: [false, false],
      intervals: [null, null],
    });
    expect(pointNote(disturbed, t)).toBe(`unstable: ${why}`);
    expect(pointNote({ ...disturbed, valid: false, reason: 'errors', noisy: true }, t)).toBe(`invalid: errors; unstable: ${why}`);
    expect(pointNote({ ...disturbed, noisy: true }, t)).toBe(`unstable: ${why}; noisy`);
  });

  it('marks a client-bound point like an unstable one and says the client set the pace', () => {
    const bound = point('c-epoll', 2000, { qps: 150000, stable: true, client_bound: true });
    expect(seriesLines(sweep, [point('c-epoll', 10, { stable: true }), bound], 'qps')[1]).toEqual({
      server: 'c-epoll',
      values: [100, 150000],
      unstable: [false, true],
      refused: [false, false],
      intervals: [null, null],
    });
    expect(pointNote(bound, t)).toBe('client-bound: this measures the load generator');
  });

  it('marks a point where the server refused or dropped part of the load, and keeps its figure', () => {
    const wall = point('c-select', 2000, { qps: 16000, idle_dropped: 9930, idle_dropped_connections: 992 });
    const failing = point('c-epoll', 2000, { qps: 90, errors: 3 });
    const lines = seriesLines(sweep, [point('c-select', 10, {}), wall, point('c-epoll', 10, {}), failing], 'qps');
    expect(lines.map((l) => [l.values, l.refused])).toEqual([
      [[100, 16000], [false, true]],
      [[100, 90], [false, true]],
    ]);
    expect(refusedLoad(point('c-poll', 2000, { idle_dropped: 0, errors: 0 }))).toBe(false);
    expect(refusedLoad(point('c-poll', 2000, { status: 'failed', errors: 5 }))).toBe(false);
  });

  it('uses a log axis for values spanning two decades, and bars when nothing varies', () => {
    expect(wantsLogAxis([10, 100, 1000])).toBe(true);
    expect(wantsLogAxis([0, 1000, 16000])).toBe(false);
    expect(wantsLogAxis([1000, 4000])).toBe(false);
    expect(variesValue(sweep)).toBe(true);
    expect(variesValue({ ...sweep, values: [100] })).toBe(false);
  });

  it('draws calls per request, then throughput, for a sweep that counts system calls', () => {
    expect(chartMetrics(sweep)).toEqual(['qps', 'p99_us']);
    const counted = { ...sweep, base: { profile: 'syscalls' as const } };
    expect(chartMetrics(counted)).toEqual(['calls_per_request', 'qps']);
    const points = [point('c-select', 10, { calls_per_request: 2.02 }), point('c-epoll', 10, { calls_per_request: null })];
    expect(seriesLines(counted, points, 'calls_per_request')).toEqual([
      { server: 'c-select', values: [2.02, null], unstable: [false, false], refused: [false, false], intervals: [null, null] },
      { server: 'c-epoll', values: [null, null], unstable: [false, false], refused: [false, false], intervals: [null, null] },
    ]);
  });

  it('counts a running series’ points: done (arrived or in the table), running, queued', () => {
    const arrived = [point('c-select', 10, {})];
    expect(sweepProgress(4, arrived, null)).toEqual({ done: 1, total: 4, running: 0, queued: 0 });
    const table = aSweep({
      finished: false,
      points: [
        point('c-select', 10, {}),
        point('c-epoll', 10, { status: 'skipped', run_id: null }),
        point('c-select', 2000, { status: 'running' }),
        point('c-epoll', 2000, { status: 'queued' }),
      ],
    });
    const progress = sweepProgress(4, arrived, table);
    expect(progress).toEqual({ done: 2, total: 4, running: 1, queued: 1 });
    expect(describeSweepProgress(progress, t)).toBe('2 of 4 points done · 1 running · 1 queued');
    expect(describeSweepProgress({ done: 0, total: 1, running: 0, queued: 0 }, t)).toBe('0 of 1 point done');
    // The table was asked for just before a second point arrived: its running one is done now.
    expect(sweepProgress(4, [...arrived, point('c-epoll', 10, {}), point('c-select', 2000, {})], table)).toEqual({
      done: 3,
      total: 4,
      running: 1,
      queued: 0,
    });
  });

  it('draws a table as it was asked for', () => {
    const table = aSweep({
      request: { servers: ['c-select', 'c-epoll'], vary: 'connections', values: [10, 2000], base: { duration_s: 3 } },
      points: [point('c-select', 10, {}), point('c-epoll', 10, {}), point('c-select', 2000, {}), point('c-epoll', 2000, {})],
    });
    expect(sweepRequestOf(table)).toEqual({ servers: ['c-select', 'c-epoll'], vary: 'connections', values: [10, 2000], base: {} });
    const asked = sweepRequestOf({
      ...table,
      request: { servers: ['c-epoll', 'c-select'], vary: 'idle_connections', values: [0, 16000], base: { profile: 'syscalls', duration_s: 3 } },
    });
    expect(asked).toMatchObject({ servers: ['c-epoll', 'c-select'], vary: 'idle_connections', values: [0, 16000] });
    expect(chartMetrics(asked)).toEqual(['calls_per_request', 'qps']);
  });

  it('gives a server the same style index on every chart: its place in the catalog', () => {
    const catalog = ['c-iterative', 'c-select', 'c-poll', 'c-epoll'];
    expect([...serverStyleIndexes(['c-epoll', 'c-select'], catalog)]).toEqual([
      ['c-epoll', 3],
      ['c-select', 1],
    ]);
    expect(serverStyleIndexes(['c-poll'], catalog).get('c-poll')).toBe(serverStyleIndexes(['c-epoll', 'c-poll'], catalog).get('c-poll'));
    // Unknown to the catalog (or no catalog yet): after it, in the order given.
    expect([...serverStyleIndexes(['x-new', 'c-poll'], catalog)]).toEqual([
      ['x-new', 4],
      ['c-poll', 2],
    ]);
    expect([...serverStyleIndexes(['c-poll', 'c-epoll'], undefined)]).toEqual([
      ['c-poll', 0],
      ['c-epoll', 1],
    ]);
  });

  it('says "1 point", not "1 points"', () => {
    expect(describeSweepProgress({ done: 0, total: 1, running: 1, queued: 0 }, t)).toBe('0 of 1 point done · 1 running');
  });
});
