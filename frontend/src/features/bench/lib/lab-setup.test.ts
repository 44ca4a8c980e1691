import { describe, expect, it } from 'vitest';

import type { Knob, RunField } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';

import {
  EMPTY_SETUP,
  planFor,
  plannedSeconds,
  setupFromRequest,
  setupFromSearch,
  setupToSearch,
  type LabSetup,
} from './lab-setup';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const FIELDS: RunField[] = [
  { name: 'protocol', label: 'Protocol', help: 'h', kind: 'choice', default: 'echo', choices: ['echo', 'http'], min_exclusive: false, sweepable: false },
  { name: 'connections', label: 'Connections', help: 'h', kind: 'int', unit: 'connection', units: 'connections', min: 1, max: 19000, default: 100, min_exclusive: false, sweepable: true },
  { name: 'payload_bytes', label: 'Payload', help: 'h', kind: 'int', unit: 'byte', units: 'bytes', min: 1, max: 1048576, default: 64, min_exclusive: false, sweepable: true },
  { name: 'duration_s', label: 'Duration', help: 'h', kind: 'float', unit: 's', units: 's', min: 0, min_exclusive: true, max: 60, default: 10, sweepable: false },
  { name: 'warmup_s', label: 'Warm-up', help: 'h', kind: 'float', unit: 's', units: 's', min: 0, max: 30, default: 2, min_exclusive: false, sweepable: false },
  { name: 'new_connection_per_request', label: 'New connection per request', help: 'h', kind: 'bool', default: false, min_exclusive: false, sweepable: false },
  { name: 'repetitions', label: 'Repetitions', help: 'h', kind: 'int', min: 1, max: 5, default: 1, min_exclusive: false, sweepable: false },
];
const KNOBS: Record<string, Knob[]> = {
  'c-threaded': [{ name: 'stack_kib', label: 'thread stack', flag: '--stack-kib', type: 'int', default: 8192, min: 64, max: 65536, unit: 'KiB', help: 'h' }],
  'c-epoll': [{ name: 'trigger', label: 'readiness trigger', flag: '--trigger', type: 'enum', default: 'level', values: ['level', 'edge'], help: 'h' }],
};

const setup = (partial: Partial<LabSetup>): LabSetup => ({ ...EMPTY_SETUP, ...partial });

describe('planFor', () => {
  it('makes one server with nothing varied a run, with only the changed fields and its knobs', () => {
    const plan = planFor(setup({ servers: ['c-threaded'], fields: { connections: 500, payload_bytes: 64 }, knobs: { 'c-threaded': { stack_kib: 256 } } }), FIELDS, t);
    expect(plan.kind).toBe('run');
    expect(plan).toEqual({ kind: 'run', title: 'Lab run', request: { server: 'c-threaded', connections: 500, knobs: { stack_kib: 256 } } });
  });

  it('compares several servers as a one-value sweep at their connections', () => {
    const plan = planFor(setup({ servers: ['c-epoll', 'c-poll'], fields: { connections: 1000, duration_s: 5 } }), FIELDS, t);
    expect(plan.kind === 'sweep' && plan.sweep).toEqual({ servers: ['c-epoll', 'c-poll'], vary: 'connections', values: [1000], base: { duration_s: 5 } });
  });

  it('sweeps one field over its values, with each server its own knobs', () => {
    const plan = planFor(
      setup({ servers: ['c-epoll', 'c-threaded'], vary: 'payload_bytes', values: [16, 4096], fields: { payload_bytes: 999 }, knobs: { 'c-threaded': { stack_kib: 256 } } }),
      FIELDS,
      t,
    );
    expect(plan.kind === 'sweep' && plan.sweep).toEqual({
      servers: ['c-epoll', 'c-threaded'],
      vary: 'payload_bytes',
      values: [16, 4096],
      base: {},
      server_knobs: { 'c-threaded': { stack_kib: 256 } },
    });
  });
});

describe('the URL', () => {
  it('round-trips a setup with only what differs from the defaults', () => {
    const original = setup({
      servers: ['c-epoll', 'c-threaded'],
      fields: { connections: 100, payload_bytes: 512, new_connection_per_request: true, protocol: 'http' },
      knobs: { 'c-threaded': { stack_kib: 256 }, 'c-epoll': { trigger: 'edge' } },
      vary: 'connections',
      values: [10, 100, 1000],
    });
    const search = setupToSearch(original, FIELDS);
    expect(search).not.toContain('connections=100');
    const back = setupFromSearch(new URLSearchParams(search), FIELDS, KNOBS);
    expect(back).toEqual({ ...original, fields: { payload_bytes: 512, new_connection_per_request: true, protocol: 'http' } });
  });

  it('keeps a bad value for the form to flag rather than dropping it', () => {
    const back = setupFromSearch(new URLSearchParams('servers=c-epoll&connections=lots&vary=bogus'), FIELDS, KNOBS);
    expect(back.fields.connections).toBeNaN();
    expect(back.vary).toBeNull();
  });
});

describe('setupFromRequest', () => {
  it('opens a lesson series in the lab, each server with its knobs', () => {
    const lab = setupFromRequest({
      servers: ['c-epoll', 'c-threaded'],
      vary: 'connections',
      values: [10, 100],
      base: { duration_s: 5, knobs: { buffer_bytes: 4096 } },
      server_knobs: { 'c-threaded': { stack_kib: 256 } },
      lesson: '05-epoll',
      experiment: 'a1b2c3d4e5f6',
    });
    expect(lab).toEqual({
      servers: ['c-epoll', 'c-threaded'],
      fields: { duration_s: 5 },
      knobs: { 'c-epoll': { buffer_bytes: 4096 }, 'c-threaded': { buffer_bytes: 4096, stack_kib: 256 } },
      vary: 'connections',
      values: [10, 100],
    });
  });

  it('opens a comparison at one value with that value set, and a run as it was asked for', () => {
    expect(setupFromRequest({ servers: ['c-epoll', 'c-poll'], vary: 'connections', values: [500] })).toEqual({
      servers: ['c-epoll', 'c-poll'],
      fields: { connections: 500 },
      knobs: {},
      vary: null,
      values: [],
    });
    expect(setupFromRequest({ server: 'c-poll', connections: 7, knobs: {}, lesson: null })).toEqual({ servers: ['c-poll'], fields: { connections: 7 }, knobs: {}, vary: null, values: [] });
  });
});

it('estimates the time a setup takes', () => {
  expect(plannedSeconds(setup({ servers: ['a', 'b'], vary: 'connections', values: [1, 2, 3], fields: { repetitions: 2 } }), FIELDS)).toBe(2 * 3 * 2 * 12);
});
