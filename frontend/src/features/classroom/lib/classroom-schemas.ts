/**
 * zod schemas for the classroom endpoints (docs/ARCHITECTURE.md, "The classroom"): a class as
 * its instructor and students see it, the roster, the queue, the presentation, the class board,
 * and the frames of the class stream. Objects are non-strict like the rest
 * of the API's schemas: the backend may add fields, but every field the UI reads is checked.
 */
import { z } from 'zod';

import { runEventSchemas, sweepSchema, type RunEventFrame, type RunEventType, type Sweep } from '@/lib/api-schemas';

/** A timestamp the backend may leave out or send as null; null either way here. */
const maybeTime = z.string().nullish().transform((t) => t ?? null);
const maybeNumber = z.number().nullish().transform((n) => n ?? null);
const maybeString = z.string().nullish().transform((s) => s ?? null);

// ───────────────────────────── the class ──────────────────────────

/** GET /api/classes/{id}, the pause and resume answers, and the stream's `class` event. */
export const classroomClassSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** "" for a student: only the instructor hands the code out. */
  join_code: z.string(),
  created_at: z.string(),
  /** When the class ends by itself; null when it runs until the instructor ends it. */
  ends_at: maybeTime,
  ended_at: maybeTime,
  /** The class's waiting runs are held: the runner skips them until the instructor resumes. */
  paused: z.boolean(),
  students: z.number().int().nonnegative(),
});
export type ClassroomClass = z.infer<typeof classroomClassSchema>;

// ───────────────────────────── roster and queue ───────────────────

export const rosterEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  joined_at: z.string(),
  /** While the student has a class stream open (and up to 15 s after it closes). */
  online: z.boolean(),
  last_seen_at: maybeTime,
  /** The lesson the student is on now (its slug), if any. */
  lesson: maybeString,
  /** How many lessons the student has marked read. */
  lessons_read: z.number().int().nonnegative(),
  runs: z.number().int().nonnegative(),
});
export type RosterEntry = z.infer<typeof rosterEntrySchema>;
export const rosterSchema = z.array(rosterEntrySchema);

export const queuedRunSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  owner_id: z.string(),
  owner_name: z.string(),
  server: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  /** 1 = next to start; null when it is not waiting, or held. */
  position: z.number().int().nullish().transform((n) => n ?? null),
  /** Estimated seconds until it starts. */
  wait_s: maybeNumber,
  /** Waiting while the class is paused. */
  held: z.boolean().nullish().transform((h) => h ?? false),
  lesson: maybeString,
  /** The experiment block's key within its lesson. */
  experiment: maybeString,
  sweep_id: maybeString,
  created_at: z.string(),
  started_at: maybeTime,
  finished_at: maybeTime,
  qps: maybeNumber,
});
export type QueuedRun = z.infer<typeof queuedRunSchema>;

/** GET /api/classes/{id}/queue: the waiting and running runs first, then the newest ended. */
export const queueSchema = z.object({
  paused: z.boolean(),
  runs: z.array(queuedRunSchema),
});
export type Queue = z.infer<typeof queueSchema>;

// ───────────────────────────── presentation ───────────────────────

/** PUT /api/classes/{id}/presentation's answer, and the stream's `presentation` event. */
export const presentationSchema = z.object({
  lesson: z.string(),
  lesson_title: z.string(),
  experiment: maybeString,
  title: maybeString,
  run_id: maybeString,
  sweep_id: maybeString,
  /** The student whose run or sweep is shown; null when it is the instructor's own. */
  spotlight: z.object({ id: z.string(), name: z.string() }).nullish().transform((s) => s ?? null),
  started_at: z.string(),
});
export type Presentation = z.infer<typeof presentationSchema>;

/** What the instructor asks to present: a lesson, optionally one experiment, run or sweep of it. */
export interface PresentationRequest {
  lesson: string;
  experiment?: string;
  title?: string;
  run_id?: string;
  sweep_id?: string;
}

// ───────────────────────────── the class board ────────────────────

const boardPointSchema = z.object({
  server: z.string(),
  value: z.number(),
  qps: maybeNumber,
  p99_us: maybeNumber,
  valid: z.boolean().nullish().transform((v) => v ?? false),
});
export type BoardPoint = z.infer<typeof boardPointSchema>;

/** One student's latest finished run (or sweep) of an experiment, or the recorded reference. */
export const boardResultSchema = z.object({
  /** null for the reference. */
  person_id: maybeString,
  name: z.string(),
  run_id: maybeString,
  sweep_id: maybeString,
  server: maybeString,
  qps: maybeNumber,
  p50_us: maybeNumber,
  p99_us: maybeNumber,
  valid: z.boolean().nullish().transform((v) => v ?? null),
  stable: z.boolean().nullish().transform((v) => v ?? null),
  finished_at: maybeTime,
  /** A series' points; empty for a single run. */
  points: z.array(boardPointSchema).nullish().transform((p) => p ?? []),
});
export type BoardResult = z.infer<typeof boardResultSchema>;

/** Median, min and max over the students' valid results; null figures when there are none. */
const statSchema = z.object({
  median: maybeNumber,
  min: maybeNumber,
  max: maybeNumber,
  count: z.number().int().nonnegative(),
});
export type Stat = z.infer<typeof statSchema>;

const spreadSchema = z.object({
  qps: statSchema.nullish().transform((s) => s ?? null),
  p99_us: statSchema.nullish().transform((s) => s ?? null),
  /** A series: the spread at each of its points. */
  points: z
    .array(z.object({ server: z.string(), value: z.number(), qps: statSchema }))
    .nullish()
    .transform((p) => p ?? []),
});
export type Spread = z.infer<typeof spreadSchema>;

export const boardExperimentSchema = z.object({
  lesson: z.string(),
  lesson_title: z.string(),
  /** The block's key in its lesson. */
  experiment: z.string(),
  title: z.string(),
  kind: z.enum(['run', 'series']),
  /** A series' varied parameter (connections, rate…); null for a run or a plain server comparison. */
  vary: maybeString,
  reference: boardResultSchema.nullish().transform((r) => r ?? null),
  results: z.array(boardResultSchema),
  spread: spreadSchema.nullish().transform((s) => s ?? { qps: null, p99_us: null, points: [] }),
});
export type BoardExperiment = z.infer<typeof boardExperimentSchema>;

/** GET /api/classes/{id}/board: every experiment of the course, in course order. */
export const boardSchema = z.object({ experiments: z.array(boardExperimentSchema) });
export type Board = z.infer<typeof boardSchema>;

// ───────────────────────────── the class stream ───────────────────

/** `run_event`: one event of the presented run, relayed with its run's sequence number. */
const relayedRunEventSchema = z.object({
  run_id: z.string(),
  seq: z.number().int().positive(),
  type: z.string(),
  data: z.unknown(),
});

export type ClassStreamEvent =
  | { type: 'class'; klass: ClassroomClass }
  | { type: 'presentation'; presentation: Presentation | null }
  | { type: 'run_event'; runId: string; frame: RunEventFrame }
  | { type: 'sweep'; sweep: Sweep }
  | { type: 'ended' };

export const CLASS_STREAM_EVENTS = ['class', 'presentation', 'run_event', 'sweep', 'ended'] as const;
export type ClassStreamEventName = (typeof CLASS_STREAM_EVENTS)[number];

function isRunEventType(type: string): type is RunEventType {
  return type in runEventSchemas;
}

/** A relayed run event's payload checked as the run's own stream would check it. */
function runFrameOf(type: string, seq: number, data: unknown): RunEventFrame | string {
  if (!isRunEventType(type)) return `unknown run event type "${type}"`;
  const parsed = runEventSchemas[type].safeParse(data);
  if (!parsed.success) return `run event "${type}" #${seq} does not match the contract: ${z.prettifyError(parsed.error)}`;
  // The same shape parseRunEventFrame builds from a run's own stream.
  return { type, seq, data: parsed.data } as RunEventFrame;
}

function decode(event: ClassStreamEventName, json: unknown): ClassStreamEvent | string {
  switch (event) {
    case 'class': {
      const parsed = classroomClassSchema.safeParse(json);
      return parsed.success ? { type: 'class', klass: parsed.data } : z.prettifyError(parsed.error);
    }
    case 'presentation': {
      const parsed = presentationSchema.nullable().safeParse(json);
      return parsed.success ? { type: 'presentation', presentation: parsed.data } : z.prettifyError(parsed.error);
    }
    case 'run_event': {
      const parsed = relayedRunEventSchema.safeParse(json);
      if (!parsed.success) return z.prettifyError(parsed.error);
      const frame = runFrameOf(parsed.data.type, parsed.data.seq, parsed.data.data);
      return typeof frame === 'string' ? frame : { type: 'run_event', runId: parsed.data.run_id, frame };
    }
    case 'sweep': {
      const parsed = sweepSchema.safeParse(json);
      return parsed.success ? { type: 'sweep', sweep: parsed.data } : z.prettifyError(parsed.error);
    }
    case 'ended':
      // Whatever it carries, the class is over.
      return { type: 'ended' };
  }
}

/**
 * Decodes one frame of GET /api/classes/{id}/events (its `event:` name and JSON `data:`).
 * Returns a descriptive error instead of throwing, so one bad frame never breaks the stream.
 */
export function parseClassStreamFrame(
  event: string,
  rawData: string,
): { ok: true; event: ClassStreamEvent } | { ok: false; error: string } {
  if (!(CLASS_STREAM_EVENTS as readonly string[]).includes(event)) {
    return { ok: false, error: `unknown class event "${event}"` };
  }
  let json: unknown = null;
  if (rawData.trim() !== '') {
    try {
      json = JSON.parse(rawData);
    } catch {
      return { ok: false, error: `class event "${event}" is not JSON` };
    }
  }
  const decoded = decode(event as ClassStreamEventName, json);
  return typeof decoded === 'string'
    ? { ok: false, error: `class event "${event}" does not match the contract: ${decoded}` }
    : { ok: true, event: decoded };
}
