/** Payloads in the exact shapes of the API's contract (src/lib/api/generated), shared by tests:
 *  typed with the contract's types, so a fixture that leaves out a field fails to compile. */
import type { z } from 'zod';

import type { zVariantOut } from '@/lib/api/generated/zod.gen';
import {
  lessonExperimentSchema,
  type DoneEvent,
  type Health,
  type HostNoise,
  type Lesson,
  type LessonExperiment,
  type Run,
  type Server,
  type Sweep,
  type SweepPoint,
} from '@/lib/api-schemas';
import type { AboutLine, ExportAbout } from '@/lib/export';

/** A host's noise as the API sends it: 12 runs in 3 sets, 9 degrees of freedom, t = 2.2622. */
export const noise31: HostNoise = {
  sigma: 0.031,
  runs: 12,
  groups: 3,
  freedom: 9,
  quantile: 2.2622,
  measured_at: '2026-11-28T10:00:00+00:00',
};

export const healthyHealth: Health = {
  status: 'ok',
  docker: { reachable: true, version: '27.3.1', error: null },
  images: { 'c10klab/server:c-epoll': true, 'c10klab/server:c-poll': true, 'c10klab/loadgen:latest': true },
  ready: true,
  runner: true,
  reason: null,
  heartbeat_age_s: 1.5,
  runners: [
    {
      id: 'lab-1',
      host: 'lab-1',
      server_cpus: '0',
      loadgen_cpus: '1',
      engine: '27.3.1',
      state: 'idle',
      run_id: null,
      ready: true,
      reason: null,
      heartbeat_age_s: 1.5,
      shares_cpus_with: [],
      noise: noise31,
    },
  ],
};

export const servers: Server[] = [
  {
    id: 'c-epoll',
    title: 'epoll, level-triggered',
    model: 'epoll',
    language: 'c',
    source: 'servers/c/epoll.c',
    lesson: '01-c10k-problem',
    image: 'c10klab/server:c-epoll',
    command: ['/usr/local/bin/c-epoll'],
    protocols: ['echo', 'http'],
    needs_io_uring: false,
    knobs: [
      { name: 'trigger', label: 'readiness trigger', flag: '--trigger', type: 'enum', values: ['lt', 'et'], default: 'lt', help: 'level- or edge-triggered readiness' },
      { name: 'buffer_bytes', label: 'read buffer', flag: '--buffer-bytes', type: 'int', min: 512, max: 1048576, default: 16384, unit: 'bytes', help: 'read buffer per connection' },
    ],
    limits: { max_connections: 19000, pids: 64, pids_per_connection: false, notes: [] },
  },
  {
    id: 'c-poll',
    title: 'poll() event loop',
    model: 'poll',
    language: 'c',
    source: 'servers/c/poll.c',
    lesson: '04-select-and-poll',
    image: 'c10klab/server:c-poll',
    command: ['/usr/local/bin/c-poll'],
    protocols: ['echo', 'http'],
    needs_io_uring: false,
    knobs: [],
    limits: { max_connections: 19000, pids: 64, pids_per_connection: false, notes: [] },
  },
];

export const latency = { p50: 120, p90: 250, p99: 900, p999: 2100, max: 5000 };

export function progress(t: number, phase: 'warmup' | 'measure', qps = 50_000) {
  return { t_s: t, phase, qps, requests: qps, errors: 0, latency_us: latency };
}

export const doneData = {
  summary: {
    qps: 51234.5,
    requests: 256172,
    duration_s: 5.0,
    errors: {},
    error_total: 0,
    latency_us: { min: 40, mean: 150, stdev: 80, ...latency },
    percentiles: [
      { percentile: 0, latency_us: 40 },
      { percentile: 50, latency_us: 120 },
      { percentile: 90, latency_us: 250 },
      { percentile: 99, latency_us: 900 },
      { percentile: 99.9, latency_us: 2100 },
      { percentile: 100, latency_us: 5000 },
    ],
  },
  server: { cpu_percent_mean: 87.5, memory_peak_bytes: 5 * 1024 * 1024, pids_peak: 1 },
  provenance: {
    kernel: '6.1.0',
    loadgen_version: '0.1.0',
    server_cpus: '0',
    loadgen_cpus: '1',
    server_argv: ['/usr/local/bin/c-epoll', '--port', '7000'],
    loadgen_argv: ['loadgen', '--connections', '100'],
    server_image: { tag: 'c10klab/server:c-epoll', id: 'sha256:0123456789abcdef' },
    loadgen_image: { tag: 'c10klab/loadgen:latest', id: null },
    started_at: '2026-11-25T10:01:00+00:00',
    finished_at: '2026-11-25T10:01:08+00:00',
    shares_cpus_with: [],
  },
  valid: true,
  invalid_reason: null,
  stable: true,
  unstable_reason: null,
  interference: {
    limit: 0.1,
    measure_phase: { from_s: 1.3, to_s: 6.3 },
    server: { cpus: '0', judged: true, samples: 5, from_s: 1.9, to_s: 5.9, seconds: 4, busy: 0.99, container: 0.97, irq: 0.36, others: 0.02, steal: 0, interference: 0.02 },
    loadgen: { cpus: '1', judged: true, samples: 5, from_s: 1.9, to_s: 5.9, seconds: 4, busy: 0.98, container: 0.95, irq: 0.37, others: 0.03, steal: 0, interference: 0.03 },
  },
  drift: { limit: 0.3, open_loop: false, judged: true, intervals: 5, median_qps: 120000, drifted: [] },
  repetitions: [],
} satisfies DoneEvent;

export const lessons: Omit<Lesson, 'markdown' | 'figures' | 'experiments' | 'diagrams' | 'prerequisites' | 'prev' | 'next'>[] = [
  { slug: '01-c10k-problem', language: 'en', title: 'The C10K problem', summary: 'Why ten thousand connections were hard.', minutes: 15, order: 1 },
  { slug: '02-blocking', language: 'en', title: 'One process per connection', summary: 'fork() and friends.', minutes: 20, order: 2 },
];

/** GET /api/runs/{id}: a finished run of c-epoll at its defaults. */
export function aRun(overrides: Partial<Run> = {}): Run {
  return {
    id: 'r1',
    owner_id: 'p-solo',
    server: 'c-epoll',
    status: 'done',
    request: {
      server: 'c-epoll',
      check_only: false,
      connections: 100,
      duration_s: 10,
      warmup_s: 2,
      ramp_s: 0,
      idle_connections: 0,
      new_connection_per_request: false,
      payload_bytes: 64,
      protocol: 'echo',
      rate: 0,
      repetitions: 1,
      profile: 'throughput',
      knobs: {},
    },
    created_at: '2026-11-25T10:01:00Z',
    started_at: '2026-11-25T10:01:00Z',
    finished_at: '2026-11-25T10:01:08Z',
    position: null,
    wait_s: null,
    held: false,
    result: doneData,
    error: null,
    ...overrides,
  };
}

/** A point of a sweep: `server` at `value`, done with its headline figures unless told otherwise. */
export function aPoint(overrides: Partial<SweepPoint> & Pick<SweepPoint, 'server' | 'value'>): SweepPoint {
  return { run_id: `run-${overrides.server}-${overrides.value}`, status: 'done', reason: null, valid: true, stable: true, ...overrides };
}

/** GET /api/sweeps/{id}: a sweep over connections, finished unless told otherwise. */
export function aSweep(overrides: Partial<Sweep> = {}): Sweep {
  return {
    id: 's1',
    request: { servers: ['c-epoll'], vary: 'connections', values: [10, 100], base: {} },
    created_at: '2026-11-25T10:05:00Z',
    finished: true,
    points: [],
    memory_per_connection: {},
    entries: [],
    verdicts: [],
    ...overrides,
  };
}

/** An experiment block of a lesson as GET /api/lessons/{slug} lists it, parsed by the backend:
 *  give `run` or `sweep` (or `error`), as the API sends them (the run's defaults left out). */
export function anExperiment(source: string, overrides: Partial<z.input<typeof lessonExperimentSchema>>): LessonExperiment {
  return lessonExperimentSchema.parse({ key: 'a1b2c3d4e5f6', source, title: null, kind: overrides.sweep ? 'series' : 'run', ...overrides });
}

/** Where a result was measured (a baseline's `provenance`): the runner's full record, changed by `overrides`. */
export function aProvenance(overrides: Partial<DoneEvent['provenance'] & object> = {}) {
  return { ...doneData.provenance, ...overrides };
}

/** GET /api/lessons/{slug}'s answer for the first lesson, listing `experiments` (anExperiment). */
export function aLesson(experiments: LessonExperiment[]) {
  return { ...lessons[0]!, prerequisites: [], markdown: '', diagrams: [], prev: null, next: null, experiments };
}

type Variant = z.infer<typeof zVariantOut>;

/** GET /api/variants/{id}: a saved edit of c-epoll's model file, not an exercise's answer. */
export function aVariant(overrides: Partial<Variant> = {}): Variant {
  return {
    id: 'v1',
    server: 'c-epoll',
    file: 'servers/c/epoll.c',
    source: '',
    source_sha256: 'x',
    created_at: '2026-11-25T10:00:00Z',
    owner_id: 'p-solo',
    owner: { mine: true, name: null, instructor: false },
    check_run_id: 'r1',
    exercise: null,
    verdict: null,
    check: { status: 'done', failed: null, reason: null },
    ...overrides,
  };
}

/** A variant `id` that answers `exercise` (null: an edit in the free editor), its verdict's
 *  status `status` (null: none), as GET /api/variants lists it. */
export function anAnswer(id: string, exercise: string | null, status: 'pending' | 'passed' | 'failed' | null): Variant {
  const check = { status: status === 'pending' ? ('running' as const) : ('done' as const), failed: null, reason: null };
  return aVariant({ id, check_run_id: `r-${id}`, exercise, check, verdict: status ? { status, reasons: [], failed: [], measured: [] } : null });
}

/** What a run's export says about it, as the bench makes it (features/bench/lib/result-about.ts):
 *  `lines` in place of the usual server, connections, CPU and date. */
export function anExportAbout(lines?: AboutLine[], data: Record<string, unknown> = {}): ExportAbout {
  return {
    title: 'c-epoll run',
    link: 'http://localhost:8000/#/runs/3f2a',
    lines: lines ?? [
      { label: 'Server', value: 'epoll (c-epoll)' },
      { label: 'Connections', value: '100' },
      { label: 'CPU', value: 'AMD EPYC 7B13, 2 CPUs' },
      { label: 'Measured', value: '25 Nov 2026, 10:08 (2026-11-25T10:08:00Z)' },
    ],
    data,
  };
}

/** GET /api/lab/fields as this 2-core host answers it: the lab's fields and limits. */
export const labFields = {
  max_sweep_points: 40,
  max_sweep_servers: 12,
  max_total_connections: 19000,
  profile_max_repetitions: { syscalls: 1 },
  fields: [
    { name: 'protocol', label: 'Protocol', help: 'echo or http', kind: 'choice', default: 'echo', choices: ['echo', 'http'], min_exclusive: false, sweepable: false },
    { name: 'connections', label: 'Connections', help: 'active connections', kind: 'int', unit: 'connection', units: 'connections', min: 1, max: 19000, default: 100, sweepable: true },
    { name: 'duration_s', label: 'Duration', help: 'measured seconds', kind: 'float', unit: 's', units: 's', min: 0, min_exclusive: true, max: 60, default: 10, sweepable: false },
    { name: 'warmup_s', label: 'Warm-up', help: 'seconds before measuring', kind: 'float', unit: 's', units: 's', min: 0, max: 30, default: 2, sweepable: false },
    { name: 'idle_connections', label: 'Idle connections', help: 'connections that never send', kind: 'int', unit: 'connection', units: 'connections', min: 0, max: 18999, default: 0, sweepable: true },
  ],
};
