import { describe, expect, it } from 'vitest';

import type { HistoryEntry } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';

import { describeEntry, entryLabUrl, entrySetup } from './history';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const run: HistoryEntry = {
  kind: 'run',
  id: 'r1',
  created_at: '2026-11-25T10:01:00Z',
  servers: ['c-threaded'],
  status: 'done',
  request: { connections: 1, payload_bytes: 64, protocol: 'echo', duration_s: 10 },
  knobs: { stack_kib: 256 },
  qps: 1000,
  p99_us: 300,
};

const sweep: HistoryEntry = {
  kind: 'sweep',
  id: 's1',
  created_at: '2026-11-25T10:02:00Z',
  servers: ['c-epoll', 'c-poll'],
  status: 'running',
  lesson: '05-epoll',
  request: { duration_s: 5, warmup_s: 1, rate: 0 },
  knobs: {},
  vary: 'connections',
  values: [10, 1000, 100],
  points: 6,
  points_ended: 2,
};

describe('describeEntry', () => {
  it('names the servers and what varied, agreeing in number', () => {
    expect(describeEntry(run, t)).toBe('c-threaded, 1 connection');
    expect(describeEntry(sweep, t)).toBe('c-epoll vs c-poll over connections 10–1000');
    expect(describeEntry({ ...sweep, vary: 'connections', values: [500] }, t)).toBe('c-epoll vs c-poll, 500 connections');
  });
});

describe('reopening in the lab', () => {
  it('gives a run its server, fields and knobs', () => {
    expect(entrySetup(run)).toEqual({
      servers: ['c-threaded'],
      fields: { connections: 1, payload_bytes: 64, protocol: 'echo', duration_s: 10 },
      knobs: { 'c-threaded': { stack_kib: 256 } },
      vary: null,
      values: [],
    });
  });

  it('gives a sweep its servers and values, and drops defaults from the link when they are known', () => {
    const url = entryLabUrl(sweep, [{ name: 'rate', label: 'Rate', help: 'h', kind: 'float', default: 0, min_exclusive: false, sweepable: true }]);
    expect(url).toBe('/lab?servers=c-epoll%2Cc-poll&duration_s=5&warmup_s=1&vary=connections&values=10%2C1000%2C100');
  });
});
