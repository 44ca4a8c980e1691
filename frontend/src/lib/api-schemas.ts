/**
 * zod schemas for every HTTP response and SSE event of the backend
 * (docs/ARCHITECTURE.md, "HTTP API"). Objects are non-strict: the backend may
 * add fields without breaking the UI, but every field the UI reads is checked.
 */
import { z } from 'zod';

// ───────────────────────────── health ─────────────────────────────

export const healthSchema = z.object({
  status: z.string(),
  docker: z.object({
    reachable: z.boolean(),
    version: z.string().nullish(),
    error: z.string().nullish(),
  }),
  images: z.record(z.string(), z.boolean()),
  ready: z.boolean(),
  /** Every runner host that has served the store, the latest heard from first. */
  runners: z
    .array(
      z.object({
        id: z.string(),
        host: z.string(),
        server_cpus: z.string(),
        loadgen_cpus: z.string(),
        engine: z.string().nullable(),
        state: z.enum(['idle', 'running', 'stopped', 'lost']),
        run_id: z.string().nullable(),
        ready: z.boolean(),
        reason: z.string().nullable(),
        heartbeat_age_s: z.number(),
        shares_cpus_with: z.array(z.string()),
      }),
    )
    .default([]),
});
export type Health = z.infer<typeof healthSchema>;
export type RunnerHealth = Health['runners'][number];

// ───────────────────────────── lessons ────────────────────────────

export const lessonSummarySchema = z.object({
  slug: z.string().min(1),
  title: z.string(),
  summary: z.string().nullish().transform((s) => s ?? ''),
  minutes: z.number().nonnegative().nullish(),
  order: z.number(),
});
export type LessonSummary = z.infer<typeof lessonSummarySchema>;

export const lessonListSchema = z.array(lessonSummarySchema);

const lessonLinkSchema = z.object({ slug: z.string().min(1), title: z.string() }).nullable();
export type LessonLink = z.infer<typeof lessonLinkSchema>;

/** A ```mermaid block drawn by `make diagrams`: the block's text (trimmed) and its SVG. */
const diagramSchema = z.object({ source: z.string(), svg: z.string() });
export type Diagram = z.infer<typeof diagramSchema>;

/**
 * An ```experiment block of the lesson as the server knows it: `key` is the first 12 hex digits
 * of the SHA-256 of its trimmed text (`source`), the tag runs and sweeps carry for the class board.
 */
const lessonExperimentSchema = z.object({
  key: z.string().min(1),
  source: z.string(),
  title: z.string().nullish().transform((t) => t ?? null),
});
export type LessonExperiment = z.infer<typeof lessonExperimentSchema>;

export const lessonSchema = lessonSummarySchema.extend({
  markdown: z.string(),
  // Blocks with no drawing (a lesson being edited) are drawn in the browser.
  diagrams: z.array(diagramSchema).optional().transform((v) => v ?? []),
  // Backends before the classroom's board listed no experiments: their runs go untagged.
  experiments: z.array(lessonExperimentSchema).optional().transform((v) => v ?? []),
  prev: lessonLinkSchema.optional().transform((v) => v ?? null),
  next: lessonLinkSchema.optional().transform((v) => v ?? null),
});
export type Lesson = z.infer<typeof lessonSchema>;

// ───────────────────────────── servers (catalog) ──────────────────

export const knobSchema = z.object({
  name: z.string(),
  flag: z.string().optional(),
  type: z.string(),
  values: z.array(z.union([z.string(), z.number()])).optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  min: z.number().optional(),
  max: z.number().optional(),
  unit: z.string().optional(),
  help: z.string().optional(),
});
export type Knob = z.infer<typeof knobSchema>;

export const serverSchema = z.object({
  id: z.string(),
  title: z.string(),
  model: z.string().optional(),
  language: z.string().optional(),
  source: z.string().optional(),
  lesson: z.string().nullish(),
  image: z.string().optional(),
  protocols: z.array(z.string()).optional(),
  needs_io_uring: z.boolean().optional(),
  knobs: z.array(knobSchema).default([]),
});
export type Server = z.infer<typeof serverSchema>;
export const serverListSchema = z.array(serverSchema);

// ───────────────────────────── sources ────────────────────────────

export const sourceSchema = z.object({
  path: z.string(),
  language: z.string().nullish().transform((s) => s ?? ''),
  start_line: z.number().int().positive(),
  end_line: z.number().int().positive(),
  text: z.string(),
});
export type Source = z.infer<typeof sourceSchema>;

// ───────────────────────────── runs ───────────────────────────────

export const runStatusSchema = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);
export type RunStatus = z.infer<typeof runStatusSchema>;

export const runCreatedSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  status: runStatusSchema,
  position: z.number().int().nullish(),
  /** Estimated seconds until the run starts (backends before the classroom mode sent none). */
  wait_s: z.number().nonnegative().nullish(),
  /** Its class is paused by the instructor: it keeps its place (position null) until resumed. */
  held: z.boolean().optional(),
});
export type RunCreated = z.infer<typeof runCreatedSchema>;

export const runCancelledSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  status: runStatusSchema,
});

const latencySchema = z.object({
  p50: z.number(),
  p90: z.number(),
  p99: z.number(),
  p999: z.number(),
  max: z.number(),
});

const percentilePointSchema = z.object({
  percentile: z.number(),
  latency_us: z.number(),
});
export type PercentilePoint = z.infer<typeof percentilePointSchema>;

export const summarySchema = z.object({
  qps: z.number(),
  requests: z.number(),
  duration_s: z.number(),
  errors: z.record(z.string(), z.number()).default({}),
  error_total: z.number().default(0),
  latency_us: latencySchema.extend({
    min: z.number().optional(),
    mean: z.number().optional(),
    stdev: z.number().optional(),
  }),
  percentiles: z.array(percentilePointSchema).default([]),
  /** Open loop only: the target rate, what was achieved, and the other two latencies. */
  open_loop: z
    .object({
      target_qps: z.number(),
      achieved_qps: z.number(),
      achieved_fraction: z.number(),
      short_of_target: z.boolean(),
      latency_actual_us: latencySchema,
      send_lag_us: latencySchema,
    })
    .nullish(),
  idle: z.object({ requested: z.number(), open_at_start: z.number(), dropped: z.number() }).nullish(),
});
export type Summary = z.infer<typeof summarySchema>;

const processProfileSchema = z.object({
  threads_peak: z.number().nullish(),
  rss_mean_bytes: z.number().nullish(),
  voluntary_ctxt_switches_per_s: z.number().nullish(),
  nonvoluntary_ctxt_switches_per_s: z.number().nullish(),
});

const aggregateSchema = z.object({
  count: z.number().int(),
  qps: z.object({ median: z.number(), min: z.number(), max: z.number(), spread: z.number() }),
  noisy: z.boolean(),
  noisy_threshold: z.number(),
});
export type Aggregate = z.infer<typeof aggregateSchema>;

/** A syscall profile: perf's counts (no ptrace), per request served; or, where the host
 *  would not count, why (`refused`) and no figure. `errors` is counted for some calls only. */
const syscallsSchema = z.object({
  method: z.literal('perf'),
  refused: z.string().nullable(),
  requests: z.number().nullable(),
  calls_per_request: z.number().nullable(),
  rows: z.array(
    z.object({ syscall: z.string(), calls: z.number(), errors: z.number().nullable(), per_request: z.number() }),
  ),
});
export type Syscalls = z.infer<typeof syscallsSchema>;

/**
 * How the CPUs of the server (or the load generator) were used while a run was measured, as
 * fractions of their capacity: `others` is busy time beyond the container's own, `interference`
 * others plus the hypervisor's steal. `judged: false` (with a `note`) when too few Docker samples
 * fell inside the measured time.
 */
const cpuUseSchema = z.object({
  cpus: z.string(),
  judged: z.boolean(),
  note: z.string().nullish(),
  from_s: z.number().nullish(),
  to_s: z.number().nullish(),
  seconds: z.number().nullish(),
  busy: z.number().nullish(),
  container: z.number().nullish(),
  irq: z.number().nullish(),
  others: z.number().nullish(),
  steal: z.number().nullish(),
  interference: z.number().nullish(),
});
export type CpuUse = z.infer<typeof cpuUseSchema>;

/** The load generator's side of a run: how busy it kept its own CPUs, the engine it drove its
 *  sockets with, and `bound` when its CPUs were saturated and the server's were not: then the
 *  figures measure the client, not the server. */
const clientSchema = z.object({
  cpu: z.number().nullish(),
  bound: z.boolean().nullish(),
  reason: z.string().nullish(),
  engine: z.string().nullish(),
  engine_note: z.string().nullish(),
});
export type Client = z.infer<typeof clientSchema>;

const interferenceSchema = z.object({
  limit: z.number(),
  server: cpuUseSchema,
  loadgen: cpuUseSchema,
  repetition: z.number().int().nullish(),
});
export type Interference = z.infer<typeof interferenceSchema>;

/** Measured intervals whose QPS left the run's median interval QPS by more than `limit`. */
const driftSchema = z.object({
  limit: z.number(),
  judged: z.boolean(),
  note: z.string().nullish(),
  intervals: z.number().int(),
  open_loop: z.boolean().nullish(),
  median_qps: z.number().nullish(),
  drifted: z.array(z.object({ t_s: z.number(), qps: z.number(), departure: z.number() })).default([]),
  repetition: z.number().int().nullish(),
});
export type Drift = z.infer<typeof driftSchema>;

// SSE event payloads (data: <json>) keyed by the SSE `event:` name.
export const queuedEventSchema = z.object({
  /** 1 = next to start; null while the run is held (its class is paused). */
  position: z.number().int().nullable(),
  /** Estimated seconds until the run starts; recordings made before it was sent have none. */
  wait_s: z.number().nonnegative().nullish(),
  held: z.boolean().optional(),
});
export const startedEventSchema = z.object({
  server: z.string(),
  // CPU pinning is informative only; accept whatever form the runner reports.
  server_cpus: z.unknown().optional(),
  loadgen_cpus: z.unknown().optional(),
});
export const progressEventSchema = z.object({
  t_s: z.number(),
  phase: z.enum(['warmup', 'measure']),
  qps: z.number(),
  requests: z.number(),
  errors: z.number(),
  latency_us: latencySchema,
});
export type ProgressEvent = z.infer<typeof progressEventSchema>;
export const serverStatsEventSchema = z.object({
  t_s: z.number(),
  cpu_percent: z.number(),
  memory_bytes: z.number(),
  pids: z.number().nullish(),
});
export type ServerStatsEvent = z.infer<typeof serverStatsEventSchema>;
export const doneEventSchema = z.object({
  summary: summarySchema,
  server: z
    .object({
      cpu_percent_mean: z.number().nullish(),
      memory_peak_bytes: z.number().nullish(),
      pids_peak: z.number().nullish(),
      profile: processProfileSchema.nullish(),
    })
    .nullish(),
  provenance: z.record(z.string(), z.unknown()).nullish(),
  valid: z.boolean(),
  invalid_reason: z.string().nullish(),
  // Results recorded before the stability checks have none of these.
  stable: z.boolean().nullish(),
  unstable_reason: z.string().nullish(),
  interference: interferenceSchema.nullish(),
  client: clientSchema.nullish(),
  drift: driftSchema.nullish(),
  aggregate: aggregateSchema.nullish(),
  syscalls: syscallsSchema.nullish(),
});
export type DoneEvent = z.infer<typeof doneEventSchema>;
export const failedEventSchema = z.object({
  reason: z.string(),
  logs: z.array(z.string()).default([]),
});
export type FailedEvent = z.infer<typeof failedEventSchema>;

/** The run's runner was lost before its load began: it is back in the queue, at its place. */
export const requeuedEventSchema = z.object({ reason: z.string() });

export const runEventSchemas = {
  queued: queuedEventSchema,
  requeued: requeuedEventSchema,
  started: startedEventSchema,
  progress: progressEventSchema,
  server_stats: serverStatsEventSchema,
  done: doneEventSchema,
  failed: failedEventSchema,
} as const;

export type RunEventType = keyof typeof runEventSchemas;
export const RUN_EVENT_TYPES = Object.keys(runEventSchemas) as RunEventType[];

export type RunEvent = {
  [K in RunEventType]: { type: K; data: z.infer<(typeof runEventSchemas)[K]> };
}[RunEventType];

/** One SSE frame as received: its `id:` sequence number and decoded payload. */
export type RunEventFrame = RunEvent & { seq: number };

export const runSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  server: z.string(),
  status: runStatusSchema,
  request: z.record(z.string(), z.unknown()).nullish(),
  created_at: z.string().nullish(),
  started_at: z.string().nullish(),
  finished_at: z.string().nullish(),
  position: z.number().int().nullish(),
  wait_s: z.number().nonnegative().nullish(),
  held: z.boolean().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});
export type Run = z.infer<typeof runSchema>;

/**
 * Decodes one SSE frame (event name, `id:` and JSON `data:`) into a typed event.
 * Returns a descriptive error instead of throwing, so one bad frame never breaks a run.
 */
export function parseRunEventFrame(
  type: string,
  lastEventId: string,
  rawData: string,
): { ok: true; frame: RunEventFrame } | { ok: false; error: string } {
  if (!(type in runEventSchemas)) {
    return { ok: false, error: `unknown event type "${type}"` };
  }
  const seq = Number(lastEventId);
  if (!Number.isInteger(seq) || seq < 1) {
    return { ok: false, error: `event "${type}" has no valid id (got "${lastEventId}")` };
  }
  let json: unknown;
  try {
    json = JSON.parse(rawData);
  } catch {
    return { ok: false, error: `event "${type}" #${seq} is not JSON` };
  }
  const schema = runEventSchemas[type as RunEventType];
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      error: `event "${type}" #${seq} does not match the contract: ${z.prettifyError(parsed.error)}`,
    };
  }
  return { ok: true, frame: { type, seq, data: parsed.data } as RunEventFrame };
}

// Sweeps (series experiments): POST /api/sweeps, GET /api/sweeps/{id}, SSE point/done.
export const sweepCreatedSchema = z.object({ id: z.string(), points: z.number().int(), skipped: z.number().int() });

export const sweepPointSchema = z.object({
  server: z.string(),
  value: z.number(),
  run_id: z.string().nullable(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled', 'skipped']),
  reason: z.string().nullish(),
  valid: z.boolean().nullish(),
  stable: z.boolean().nullish(),
  unstable_reason: z.string().nullish(),
  client_bound: z.boolean().nullish(),
  qps: z.number().nullish(),
  spread: z.number().nullish(),
  noisy: z.boolean().nullish(),
  p50_us: z.number().nullish(),
  p99_us: z.number().nullish(),
  errors: z.number().nullish(),
  cpu_percent: z.number().nullish(),
  rss_bytes: z.number().nullish(),
  threads: z.number().nullish(),
  voluntary_ctxt_switches_per_s: z.number().nullish(),
  nonvoluntary_ctxt_switches_per_s: z.number().nullish(),
  idle_dropped: z.number().nullish(),
  calls_per_request: z.number().nullish(),
});
export type SweepPoint = z.infer<typeof sweepPointSchema>;

/** What a sweep was asked for (POST /api/sweeps's body), as GET /api/sweeps/{id} returns it. */
export const sweepRequestSchema = z.object({
  servers: z.array(z.string()),
  vary: z.enum(['connections', 'idle_connections', 'rate', 'payload_bytes']),
  values: z.array(z.number()),
  base: z.record(z.string(), z.unknown()).default({}),
  /** The lesson the series was started from, when it was. */
  lesson: z.string().nullish(),
});

export const sweepSchema = z.object({
  id: z.string(),
  // Tables recorded before it was stored have none; an unreadable one is treated the same.
  request: sweepRequestSchema.nullish().catch(null),
  created_at: z.string().nullish(),
  finished: z.boolean(),
  points: z.array(sweepPointSchema),
  memory_per_connection: z.record(z.string(), z.number().nullable()).default({}),
});
export type Sweep = z.infer<typeof sweepSchema>;

// Reference results recorded by `make record-baselines` (GET /api/lessons/{slug}/baselines).
export const baselineSchema = z.object({
  block: z.string(),
  kind: z.enum(['run', 'series']),
  recorded_at: z.string(),
  provenance: z.record(z.string(), z.unknown()),
  result: z.object({
    events: z.array(z.object({ type: z.string(), data: z.unknown() })).optional(),
    table: sweepSchema.optional(),
  }),
});
export type Baseline = z.infer<typeof baselineSchema>;
export const lessonBaselinesSchema = z.object({ lesson: z.string(), experiments: z.array(baselineSchema) });

export const glossarySchema = z.object({
  title: z.string(),
  summary: z.string(),
  markdown: z.string(),
  terms: z.array(z.string()),
});
export type Glossary = z.infer<typeof glossarySchema>;
