import { beforeAll, describe, expect, it } from 'vitest';

import type { Knob, LabFields, RunField, Server } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';

import { blockingProblems, fieldProblem, problemReason, setupProblems, type LabProblem } from './lab-checks';
import { EMPTY_SETUP, type LabSetup } from './lab-setup';

const t = i18next.getFixedT('en', 'bench');
const zh = i18next.getFixedT('zh', 'bench');

beforeAll(async () => {
  await i18next.loadLanguages('zh');
});

const FIELDS: RunField[] = [
  { name: 'protocol', label: 'Protocol', help: 'h', kind: 'choice', default: 'echo', choices: ['echo', 'http'], min_exclusive: false, sweepable: false },
  { name: 'connections', label: 'Connections', help: 'h', kind: 'int', unit: 'connection', units: 'connections', min: 1, max: 19000, default: 100, min_exclusive: false, sweepable: true },
  { name: 'duration_s', label: 'Duration', help: 'h', kind: 'float', unit: 's', units: 's', min: 0, min_exclusive: true, max: 60, default: 10, sweepable: false },
  { name: 'idle_connections', label: 'Idle connections', help: 'h', kind: 'int', unit: 'connection', units: 'connections', min: 0, max: 18999, default: 0, min_exclusive: false, sweepable: true },
  { name: 'new_connection_per_request', label: 'New connection per request', help: 'h', kind: 'bool', default: false, min_exclusive: false, sweepable: false },
  { name: 'repetitions', label: 'Repetitions', help: 'h', kind: 'int', min: 1, max: 5, default: 1, min_exclusive: false, sweepable: false },
  { name: 'profile', label: 'Profile', help: 'h', kind: 'choice', default: 'throughput', choices: ['throughput', 'syscalls'], min_exclusive: false, sweepable: false },
];
const LAB: LabFields = { fields: FIELDS, max_sweep_points: 40, max_sweep_servers: 12, max_total_connections: 19000, profile_max_repetitions: { syscalls: 1 } };

const buffer: Knob = { name: 'buffer_bytes', label: 'read buffer', flag: '--buffer-bytes', type: 'int', default: 16384, min: 64, max: 1048576, unit: 'bytes', help: 'h' };
function server(id: string, maxConnections: number, knobs: Knob[], protocols: Server['protocols'] = ['echo', 'http']): Server {
  return {
    id,
    title: id,
    model: id,
    language: 'c',
    source: `${id}.c`,
    lesson: '01',
    image: `c10klab/server:${id}`,
    command: [id],
    protocols,
    needs_io_uring: false,
    knobs,
    limits: { max_connections: maxConnections, pids: 64, pids_per_connection: false, notes: [] },
  };
}
const SERVERS = [
  server('c-epoll', 19000, [buffer]),
  server('c-select', 1018, [buffer]),
  server('c-threaded', 16000, [{ name: 'stack_kib', label: 'thread stack', flag: '--stack-kib', type: 'int', default: 8192, min: 64, max: 65536, unit: 'KiB', help: 'h' }]),
  server('c-echo-only', 19000, [], ['echo']),
];

const setup = (partial: Partial<LabSetup>): LabSetup => ({ ...EMPTY_SETUP, ...partial });
const said = (problems: LabProblem[]) => problems.map((p) => [p.place, p.text, p.skips]);

describe('setupProblems', () => {
  it('asks for a server first, as Run’s reason only, and nothing else on a fresh form', () => {
    const problems = setupProblems(EMPTY_SETUP, LAB, SERVERS, t);
    expect(said(problems)).toEqual([['run', 'Tick a server to run', false]]);
  });

  it('says each field’s own bounds beside it, in words, with the host limits', () => {
    const problems = setupProblems(setup({ servers: ['c-threaded'], fields: { connections: 20000, duration_s: 0, repetitions: 1.5 }, knobs: { 'c-threaded': { stack_kib: 1 } } }), LAB, SERVERS, t);
    expect(said(problems)).toEqual([
      ['field.connections', 'Connections may be at most 19000 connections here', false],
      ['field.duration_s', 'Duration must be more than 0 s', false],
      ['field.repetitions', 'Repetitions takes whole numbers', false],
      ['knob.c-threaded.stack_kib', 'Thread stack must be at least 64', false],
      // A server's own ceiling is checked too, once the host's is.
      ['field.connections', 'c-threaded can be run with at most 16000 connections here', false],
    ]);
    expect(problemReason(problems[3]!, t)).toBe('c-threaded: Thread stack must be at least 64');
  });

  it('checks connections and idle connections together against the host’s total', () => {
    const problems = setupProblems(setup({ servers: ['c-epoll'], fields: { connections: 10000, idle_connections: 9500 } }), LAB, SERVERS, t);
    expect(said(problems)).toEqual([['field.idle_connections', 'Connections plus Idle connections may be at most 19000 connections here (now 19500)', false]]);
    const inChinese = setupProblems(setup({ servers: ['c-epoll'], fields: { connections: 10000, idle_connections: 9500 } }), LAB, SERVERS, zh);
    expect(inChinese[0]?.text).toBe('Connections 与 Idle connections 之和在此最多为 19000 connections（现为 19500）');
  });

  it('holds a run to its server’s own ceiling: c-select’s descriptors', () => {
    const problems = setupProblems(setup({ servers: ['c-select'], fields: { connections: 2000 } }), LAB, SERVERS, t);
    expect(said(problems)).toEqual([['field.connections', 'c-select can be run with at most 1018 connections here', false]]);
    // Idle connections may go past it: only the host's total bounds them.
    expect(setupProblems(setup({ servers: ['c-select'], fields: { connections: 1000, idle_connections: 3000 } }), LAB, SERVERS, t)).toEqual([]);
  });

  it('skips a sweep’s points a server cannot run, and refuses the sweep only when none is left', () => {
    const compare = setupProblems(setup({ servers: ['c-epoll', 'c-select'], fields: { connections: 2000 } }), LAB, SERVERS, t);
    expect(said(compare)).toEqual([['field.connections', 'c-select will be skipped: c-select can be run with at most 1018 connections here', true]]);
    expect(blockingProblems(compare)).toEqual([]);

    const sweep = setupProblems(setup({ servers: ['c-epoll', 'c-select'], vary: 'connections', values: [100, 2000, 5000] }), LAB, SERVERS, t);
    expect(said(sweep)).toEqual([['values', 'c-select at 2000, 5000 connections will be skipped: c-select can be run with at most 1018 connections here', true]]);

    const nothingLeft = setupProblems(setup({ servers: ['c-select'], vary: 'connections', values: [2000, 5000] }), LAB, SERVERS, t);
    expect(said(nothingLeft)).toEqual([['values', 'c-select can be run with at most 1018 connections here', false]]);
  });

  it('refuses a value past the host’s total at every point, since no server could run it', () => {
    const problems = setupProblems(setup({ servers: ['c-epoll', 'c-select'], vary: 'idle_connections', values: [0, 18950], fields: { connections: 100 } }), LAB, SERVERS, t);
    expect(blockingProblems(problems).map((p) => [p.place, p.text])).toEqual([
      ['values', 'Connections plus Idle connections may be at most 19000 connections here (now 19050)'],
    ]);
  });

  it('allows one repetition with the syscall profile, as the contract says', () => {
    const problems = setupProblems(setup({ servers: ['c-epoll'], fields: { profile: 'syscalls', repetitions: 3 } }), LAB, SERVERS, t);
    expect(said(problems)).toEqual([['field.repetitions', 'With the syscalls profile, Repetitions may be at most 1', false]]);
  });

  it('checks the protocol a server speaks', () => {
    const problems = setupProblems(setup({ servers: ['c-echo-only'], fields: { protocol: 'http' } }), LAB, SERVERS, t);
    expect(said(problems)).toEqual([['field.protocol', 'c-echo-only speaks only echo, not http', false]]);
  });

  it('needs two values for a sweep and no more runs than the host allows', () => {
    expect(said(setupProblems(setup({ servers: ['c-epoll'], vary: 'connections', values: [10] }), LAB, SERVERS, t))).toContainEqual(['values', 'A sweep needs at least two values', false]);
    const many = setup({ servers: ['c-epoll', 'c-threaded'], vary: 'connections', values: [1, 2, 3] });
    expect(said(setupProblems(many, { ...LAB, max_sweep_points: 4 }, SERVERS, t))).toContainEqual(['values', '6 runs: a sweep may have at most 4 here', false]);
    expect(said(setupProblems(setup({ servers: ['c-epoll', 'c-select', 'c-threaded'] }), { ...LAB, max_sweep_servers: 2 }, SERVERS, t))).toContainEqual([
      'servers',
      '3 servers: a sweep may compare at most 2',
      false,
    ]);
  });

  it('checks a choice and a bool', () => {
    expect(fieldProblem(FIELDS[0]!, 'udp', t)).toBe('Protocol is one of echo, http');
    expect(fieldProblem(FIELDS[4]!, true, t)).toBeNull();
  });
});
