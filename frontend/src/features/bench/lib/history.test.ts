import { describe, expect, it } from 'vitest';

import type { HistoryEntry } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';

import { describeEntry, entryLabUrl, entrySetup, unrunnableEdit } from './history';

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

const VARIANT = '15a63321aaaabbbbccccddddeeeeffff';
const compiled = { status: 'done' as const, failed: null, reason: null };
const mine = { mine: true, name: null, instructor: false };
const edit = { entry: `variant:${VARIANT}`, variant: VARIANT, server: 'c-epoll', saved_at: '2026-11-25T09:43:00Z', exercise: null, check: compiled, owner: mine };

const benchmark: HistoryEntry = {
  kind: 'sweep',
  id: 's2',
  created_at: '2026-11-25T10:05:00Z',
  servers: ['c-epoll', `variant:${VARIANT}`],
  status: 'done',
  request: { connections: 20, duration_s: 2 },
  knobs: {},
  vary: 'round',
  values: [1, 2, 3],
  points: 6,
  points_ended: 6,
  edits: [edit],
};

const answerCheck: HistoryEntry = {
  kind: 'run',
  id: 'r-answer',
  created_at: '2026-11-25T10:06:00Z',
  servers: ['c-epoll'],
  status: 'failed',
  request: { connections: 20, variant: VARIANT, profile: 'syscalls' },
  knobs: {},
  edits: [{ ...edit, entry: 'c-epoll', exercise: 'et-drain', check: { status: 'failed', failed: 'build', reason: 'it did not compile' } }],
  verdict: { status: 'failed', reasons: ['it did not compile'], failed: ['build'], measured: [] },
};

describe('entries that ran the learner’s edits', () => {
  const words = { lng: 'en', exerciseTitle: (slug: string) => (slug === 'et-drain' ? 'Edge-triggered epoll' : slug) };

  it('names an edit by its server and save time, and an answer’s check by its exercise and verdict', () => {
    expect(describeEntry(benchmark, t, words)).toMatch(/^c-epoll vs your edit of c-epoll \(saved (\d\d:\d\d|25 Nov, \d\d:\d\d)\), 20 connections$/);
    expect(describeEntry(answerCheck, t, words)).toBe('exercise: Edge-triggered epoll — failed: it did not compile');
    const missed = { ...answerCheck, verdict: { status: 'failed' as const, reasons: ['a', 'b'], failed: ['few-reads', 'unstable'], measured: [] } };
    expect(describeEntry(missed, t, words)).toBe('exercise: Edge-triggered epoll — failed: 1 criterion not met');
  });

  it('says when an edit is no longer kept, and offers no lab for it', () => {
    const gone = { ...benchmark, edits: [] };
    expect(describeEntry(gone, t)).toBe('c-epoll vs an edit no longer kept, 20 connections');
    expect(entryLabUrl(gone)).toBeNull();
    const goneRun = { ...answerCheck, edits: [], verdict: null };
    expect(describeEntry(goneRun, t)).toBe('an edit of c-epoll no longer kept, 20 connections');
    expect(entryLabUrl(goneRun)).toBeNull();
  });

  it('reopens a comparison in rounds as both side by side, and a run of an edit as that edit', () => {
    expect(entryLabUrl(benchmark)).toBe(`/lab?servers=c-epoll%2Cvariant%3A${VARIANT}&connections=20&duration_s=2`);
    const checkedAnswer = { ...answerCheck, edits: [{ ...answerCheck.edits![0]!, check: compiled }] };
    expect(entryLabUrl(checkedAnswer)).toBe(`/lab?servers=variant%3A${VARIANT}&connections=20&profile=syscalls`);
  });

  it('offers no lab for an edit that did not compile: its run would fail the same way', () => {
    expect(entryLabUrl(answerCheck)).toBeNull();
    expect(unrunnableEdit(answerCheck)?.edit?.variant).toBe(VARIANT);
    expect(unrunnableEdit(benchmark)).toBeNull();
  });
});
