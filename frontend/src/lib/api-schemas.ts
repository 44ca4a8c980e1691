/**
 * The backend's contract, as the UI uses it: every schema here is generated from the API's
 * OpenAPI document (src/lib/api/generated, by `make contract` from the backend's pydantic
 * models), never written by hand. This file names them the way the UI has always imported
 * them, reads a sweep's `base` as it was given, and decodes SSE frames with them.
 */
import { z } from 'zod';

import {
  zBaseline,
  zCancelOut,
  zClassOut,
  zComparison,
  zDiagram,
  zExperimentRef,
  zGlossary,
  zHealth,
  zHistoryEntry,
  zHostNoise,
  zKnob,
  zLabFields,
  zLesson,
  zLessonBaselines,
  zLessonLink,
  zLessonSummary,
  zPoint,
  zPointEvent,
  zRunCreated,
  zRunEvent,
  zRunOut,
  zRunRequest,
  zRunResult,
  zServer,
  zSourceExcerpt,
  zSummary,
  zSweepBase,
  zSweepCreated,
  zSweepDoneEvent,
  zSweepOut,
  zInterval,
  zSweepRequest,
} from './api/generated/zod.gen';

// ───────────────────────────── health ─────────────────────────────

export const healthSchema = zHealth;
export type Health = z.infer<typeof healthSchema>;
export type RunnerHealth = Health['runners'][number];

// ───────────────────────────── requests ───────────────────────────

type AsGiven<S extends z.ZodRawShape> = { [K in keyof S]: S[K] extends z.ZodDefault<infer T extends z.ZodType> ? T : S[K] };

/** An object schema whose fields keep what was sent: the generated defaults taken off. */
function asGiven<S extends z.ZodRawShape>(schema: z.ZodObject<S>): z.ZodObject<AsGiven<S>> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, field instanceof z.ZodDefault ? field.unwrap() : field]),
  );
  return z.object(shape) as unknown as z.ZodObject<AsGiven<S>>;
}

/** POST /api/runs's body, and a lesson's run block as the backend parsed it: what it leaves
 *  out takes the backend's defaults. Read as given (the generated schema would fill them in),
 *  so a block's run lists and posts what the block says. */
export const runRequestSchema = asGiven(zRunRequest);
export type RunRequest = z.input<typeof runRequestSchema>;

/**
 * A sweep's `base`. The generated schema fills in every run default, but the API sends a base
 * back holding only what was given, and refuses the varied field in one: read as given, a
 * lesson's series (or a stored sweep) can be posted again unchanged.
 */
export const sweepBaseSchema = asGiven(zSweepBase);

/** POST /api/sweeps's body (a lesson's series block as the backend parsed it), as GET
 *  /api/sweeps/{id} returns it. */
export const sweepRequestSchema = zSweepRequest.extend({ base: sweepBaseSchema.optional() });
export type SweepRequest = z.input<typeof sweepRequestSchema>;
/** The run parameters a series may vary, one value per point. */
export type VariedField = SweepRequest['vary'];
export const VARIED_FIELDS = zSweepRequest.shape.vary.options;

// ───────────────────────────── lessons ────────────────────────────

export const lessonSummarySchema = zLessonSummary;
export type LessonSummary = z.infer<typeof lessonSummarySchema>;
export const lessonListSchema = z.array(lessonSummarySchema);
export type LessonLink = z.infer<typeof zLessonLink> | null;
/** A ```mermaid block drawn by `make diagrams`: the block's text (trimmed) and its SVG. */
export type Diagram = z.infer<typeof zDiagram>;

/**
 * An ```experiment block of the lesson as the backend parsed it: `key` (the tag runs and
 * sweeps carry for the class board), and its `run` or `sweep` request, or its `error`.
 */
export const lessonExperimentSchema = zExperimentRef.extend({ run: runRequestSchema.nullish(), sweep: sweepRequestSchema.nullish() });
export type LessonExperiment = z.infer<typeof lessonExperimentSchema>;
export const lessonSchema = zLesson.extend({ experiments: z.array(lessonExperimentSchema).optional().default([]) });
export type Lesson = z.infer<typeof lessonSchema>;

// ───────────────────────────── servers (catalog) ──────────────────

export type Knob = z.infer<typeof zKnob>;
export type Server = z.infer<typeof zServer>;
export const serverListSchema = z.array(zServer);

// ───────────────────────────── classes ────────────────────────────

/** A class as its instructor sees it (`join_code` as shown to students, e.g. K7QX-M4TP): the
 *  instructor's list and each class's page (ended, paused or resumed), and the class stream's
 *  `class` event. The people feature lists them, the classroom feature teaches one. */
export const classSchema = zClassOut;
export type Class = z.infer<typeof classSchema>;

// ───────────────────────────── sources ────────────────────────────

export const sourceSchema = zSourceExcerpt;
export type Source = z.infer<typeof sourceSchema>;

// ───────────────────────────── runs ───────────────────────────────

export const runCreatedSchema = zRunCreated;
export type RunCreated = z.infer<typeof runCreatedSchema>;
export const runCancelledSchema = zCancelOut;
export const runSchema = zRunOut;
export type Run = z.infer<typeof runSchema>;
export type RunStatus = Run['status'];

export type Summary = z.infer<typeof zSummary>;
export type PercentilePoint = Summary['percentiles'][number];

type RunResult = z.infer<typeof zRunResult>;
export type Aggregate = NonNullable<RunResult['aggregate']>;
/** A syscall profile: perf's counts per request served, or why the host would not count. */
export type Syscalls = NonNullable<RunResult['syscalls']>;
/** A cpu or offcpu profile's stacks (runner/stacks.py), names only. */
export type Stacks = NonNullable<RunResult['stacks']>;
export type FoldedStack = Stacks['stacks'][number];
export type CpuShares = NonNullable<Stacks['shares']>;
export type Interference = NonNullable<RunResult['interference']>;
/** How the server's (or the load generator's) CPUs were used while a run was measured. */
export type CpuUse = Interference['server'];
/** The load generator's side of a run (`bound`: the figures measure the client). */
export type Client = NonNullable<RunResult['client']>;
/** Measured intervals whose QPS left the run's median interval QPS by more than `limit`. */
export type Drift = NonNullable<RunResult['drift']>;

// ───────────────────────────── sweeps ─────────────────────────────

export const sweepCreatedSchema = zSweepCreated;
export const sweepPointSchema = zPoint;
export type SweepPoint = z.infer<typeof sweepPointSchema>;
export const sweepSchema = zSweepOut.extend({ request: sweepRequestSchema });
export type Sweep = z.infer<typeof sweepSchema>;
/** A figure with the range holding its true value at `level` (c10klab.uncertainty). */
export type Interval = z.infer<typeof zInterval>;
/** One entry against a reference: a relative change with its interval, and what it allows. */
export const comparisonSchema = zComparison;
export type Comparison = z.infer<typeof comparisonSchema>;
/** A runner host's run-to-run spread, with the t quantile its few runs call for. */
export type HostNoise = z.infer<typeof zHostNoise>;
/** One entry of a comparison in rounds: its median figures with their intervals. */
export type EntryFigures = Sweep['entries'][number];

// ───────────────────────────── event streams (SSE) ────────────────

/** One event of a run: its SSE `event:` name (`type`) and its decoded `data:`. */
export type RunEvent = z.infer<typeof zRunEvent>;
export type RunEventType = RunEvent['type'];
type DataOf<K extends RunEventType> = Extract<RunEvent, { type: K }>['data'];

type EventUnion = z.ZodDiscriminatedUnion<z.ZodObject<{ type: z.ZodLiteral<string>; data: z.ZodType }>[]>;

/** A generated union of `{type, data}` event models, indexed by event name. */
function dataSchemas(union: EventUnion): Record<string, z.ZodType> {
  return Object.fromEntries(union.options.map((option) => [option.shape.type.value, option.shape.data]));
}

/** Each run event's data schema by its SSE name (the generated union, indexed). */
const runEventSchemas = dataSchemas(zRunEvent) as {
  [K in RunEventType]: z.ZodType<DataOf<K>>;
};
export const RUN_EVENT_TYPES = Object.keys(runEventSchemas) as RunEventType[];

export type ProgressEvent = DataOf<'progress'>;
export type ServerStatsEvent = DataOf<'server_stats'>;
export const doneEventSchema = zRunResult;
export type DoneEvent = DataOf<'done'>;
export type FailedEvent = DataOf<'failed'>;

/** One SSE frame as received: its `id:` sequence number and decoded payload. */
export type RunEventFrame = RunEvent & { seq: number };

/** One event of a sweep's stream: `point` as each finishes, then `done` with the table. */
const sweepEventSchema = z.discriminatedUnion('type', [zPointEvent, zSweepDoneEvent.extend({ data: sweepSchema })]);
export type SweepEvent = z.infer<typeof sweepEventSchema>;
export type SweepEventType = SweepEvent['type'];
export const SWEEP_EVENT_TYPES = Object.keys(dataSchemas(sweepEventSchema)) as SweepEventType[];
export type SweepEventFrame = SweepEvent & { seq: number };

type FrameResult<E> = { ok: true; frame: E & { seq: number } } | { ok: false; error: string };

/**
 * One event (its name, number and decoded data) checked against `union`, a generated
 * discriminated union of `{type, data}` named `types`; `stream` prefixes the errors ("run ").
 */
function checkFrame<E extends { type: string }>(
  union: z.ZodType<E>,
  types: readonly string[],
  type: string,
  seq: number,
  data: unknown,
  stream = '',
): FrameResult<E> {
  if (!types.includes(type)) return { ok: false, error: `unknown ${stream}event type "${type}"` };
  if (!Number.isInteger(seq) || seq < 1) return { ok: false, error: `${stream}event "${type}" has no valid id (got ${seq})` };
  const parsed = union.safeParse({ type, data });
  return parsed.success
    ? { ok: true, frame: { ...parsed.data, seq } }
    : { ok: false, error: `${stream}event "${type}" #${seq} does not match the contract: ${z.prettifyError(parsed.error)}` };
}

/**
 * Decodes one SSE frame (event name, `id:` and JSON `data:`) of a stream whose events are
 * `union`, named `types`. Returns a descriptive error instead of throwing, so one bad frame
 * never breaks a stream. The run and sweep streams both go through here.
 */
export function parseEventFrame<E extends { type: string }>(
  union: z.ZodType<E>,
  types: readonly string[],
  type: string,
  lastEventId: string,
  rawData: string,
): FrameResult<E> {
  if (!types.includes(type)) {
    return { ok: false, error: `unknown event type "${type}"` };
  }
  const seq = Number(lastEventId);
  if (!Number.isInteger(seq) || seq < 1) {
    return { ok: false, error: `event "${type}" has no valid id (got "${lastEventId}")` };
  }
  let data: unknown;
  try {
    data = JSON.parse(rawData);
  } catch {
    return { ok: false, error: `event "${type}" #${seq} is not JSON` };
  }
  return checkFrame(union, types, type, seq, data);
}

/** A frame of GET /api/runs/{id}/events. */
export function parseRunEventFrame(type: string, lastEventId: string, rawData: string): FrameResult<RunEvent> {
  return parseEventFrame(zRunEvent, RUN_EVENT_TYPES, type, lastEventId, rawData);
}

/** A run event relayed elsewhere (the class stream), checked as the run's own stream is. */
export function checkRunEvent(type: string, seq: number, data: unknown): FrameResult<RunEvent> {
  return checkFrame(zRunEvent, RUN_EVENT_TYPES, type, seq, data, 'run ');
}

/** A frame of GET /api/sweeps/{id}/events, checked like a run's. */
export function parseSweepEventFrame(type: string, lastEventId: string, rawData: string): FrameResult<SweepEvent> {
  return parseEventFrame(sweepEventSchema, SWEEP_EVENT_TYPES, type, lastEventId, rawData);
}

// ───────────────────────────── recordings, glossary ───────────────

/** Reference results recorded by `make record-baselines` (GET /api/lessons/{slug}/baselines). */
export const baselineSchema = zBaseline;
export type Baseline = z.infer<typeof baselineSchema>;
export const lessonBaselinesSchema = zLessonBaselines;

export const glossarySchema = zGlossary;
export type Glossary = z.infer<typeof glossarySchema>;

// ───────────────────────────── the lab ────────────────────────────

/** GET /api/lab/fields: every field of POST /api/runs as the lab's form shows it. */
export const labFieldsSchema = zLabFields;
export type LabFields = z.infer<typeof labFieldsSchema>;
export type RunField = LabFields['fields'][number];

/** GET /api/history's entries: the learner's runs and sweeps, newest first. */
export const historyEntrySchema = zHistoryEntry;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
/** One of the learner's edited servers an entry ran, with its base server, save time and check. */
export type HistoryEdit = NonNullable<HistoryEntry['edits']>[number];
/** An exercise's verdict on an answer (a check run's entry carries it). */
export type Verdict = NonNullable<HistoryEntry['verdict']>;
/** Whose a saved edit is, as the reader knows them: theirs, a classmate's by name, the instructor's. */
export type Ownership = HistoryEdit['owner'];
