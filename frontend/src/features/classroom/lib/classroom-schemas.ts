/**
 * The classroom endpoints' shapes (docs/ARCHITECTURE.md, "The classroom"): a class as its
 * instructor and students see it, the roster, the queue, the presentation, the class board,
 * the assignments and the gradebook, and the frames of the class stream. Every schema is generated from the API's OpenAPI
 * document (src/lib/api/generated); this file names them for the classroom and decodes the
 * class stream, a relayed run event checked as the run's own stream checks it.
 */
import { z } from 'zod';

import {
  zAssignmentOut,
  zAssignRequest,
  zBoard,
  zBoardExperiment,
  zBoardResult,
  zClassQueue,
  zClassStreamEvent,
  zGradebook,
  zHandOut,
  zJoinLinks,
  zLessonQuestions,
  zLive,
  zPersonalCode,
  zPresentationOut,
  zPresentRequest,
  zRosterEntry,
  zStaffOut,
} from '@/lib/api/generated/zod.gen';
import { checkRunEvent, type Class, type RunEventFrame, type Sweep } from '@/lib/api-schemas';

// ───────────────────────────── the class ──────────────────────────
// GET /api/classes/{id}, the pause and resume answers and the stream's `class` event are a
// class as the people feature lists it too: classSchema and Class, in src/lib/api-schemas.ts.

/** GET /api/classes/{id}/join-links: where students can open the class, the one to show first. */
export const joinLinksSchema = zJoinLinks;
export type JoinLinks = z.infer<typeof joinLinksSchema>;

// ───────────────────────────── roster and queue ───────────────────

/** Who teaches a class (GET …/staff): its own instructor, co-teachers, assistants. */
export const staffSchema = zStaffOut;
export const staffListSchema = z.array(zStaffOut);
export type StaffMember = z.infer<typeof staffSchema>;

/** A student's new personal code, which their instructor hands them. */
export const personalCodeSchema = zPersonalCode;

export type RosterEntry = z.infer<typeof zRosterEntry>;
export const rosterSchema = z.array(zRosterEntry);

/** GET /api/classes/{id}/queue: the waiting and running runs first, then the newest ended. */
export const queueSchema = zClassQueue;
export type Queue = z.infer<typeof queueSchema>;
export type QueuedRun = Queue['runs'][number];

// ───────────────────────────── presentation ───────────────────────

/** PUT /api/classes/{id}/presentation's answer, and the stream's `presentation` event. */
export const presentationSchema = zPresentationOut;
export type Presentation = z.infer<typeof presentationSchema>;

/** What the instructor asks to present: a lesson, optionally one experiment, run or sweep of it. */
export type PresentationRequest = z.input<typeof zPresentRequest>;

// ───────────────────────────── the class board ────────────────────

/** One student's latest finished run (or sweep) of an experiment, or the recorded reference;
 *  a single run's `points` (null from the API) read as none. */
const boardResultSchema = zBoardResult.extend({ points: zBoardResult.shape.points.transform((p) => p ?? []) });
export const boardExperimentSchema = zBoardExperiment.extend({
  reference: boardResultSchema.nullable(),
  results: z.array(boardResultSchema),
});

/** GET /api/classes/{id}/board: every experiment of the course, in course order. */
export const boardSchema = zBoard.extend({ experiments: z.array(boardExperimentSchema) });
export type Board = z.infer<typeof boardSchema>;
export type BoardExperiment = Board['experiments'][number];
export type BoardResult = BoardExperiment['results'][number];
export type BoardPoint = BoardResult['points'][number];
/** Median, min and max over the students' valid results. */
export type Stat = NonNullable<BoardExperiment['spread']['qps']>;

// ───────────────────────────── assignments and the gradebook ──────

/** An exercise assigned to the class (PUT's answer, an item of GET …/assignments): for a
 *  student, `mine` is their own cell; null for the instructor. */
export const assignmentSchema = zAssignmentOut;
export type Assignment = z.infer<typeof assignmentSchema>;
export const assignmentsSchema = z.array(assignmentSchema);

/** What the instructor sends to assign an exercise: an optional due time, ISO 8601 with a zone. */
export type AssignRequest = z.input<typeof zAssignRequest>;

/** GET /api/classes/{id}/gradebook: students × assigned exercises. */
export const gradebookSchema = zGradebook;
export type Gradebook = z.infer<typeof gradebookSchema>;
export type GradebookRow = Gradebook['students'][number];
/** One student's answers to one assignment: passed or not, attempts, the newest answer. */
export type GradeCell = GradebookRow['cells'][number];
export type GradeStatus = GradeCell['status'];

// ───────────────────────────── live-class tools ───────────────────

/** The class's timer, newest announcements and revealed questions (the stream's `live`). */
export const liveSchema = zLive;
export type Live = z.infer<typeof liveSchema>;
export type Announcement = Live['announcements'][number];
export type ClassTimer = NonNullable<Live['timer']>;

/** A raised hand (GET/PUT …/hand, and each roster entry's `hand`). */
export const handSchema = zHandOut;
export type Hand = z.infer<typeof handSchema>;

/** A lesson's Check yourself questions in the class (GET …/questions/{lesson}). */
export const lessonQuestionsSchema = zLessonQuestions;
export type LessonQuestions = z.infer<typeof lessonQuestionsSchema>;
export type ClassQuestionState = LessonQuestions['questions'][number];

// ───────────────────────────── the class stream ───────────────────

export type ClassStreamEvent =
  | { type: 'class'; klass: Class }
  | { type: 'presentation'; presentation: Presentation | null }
  | { type: 'run_event'; runId: string; frame: RunEventFrame }
  | { type: 'sweep'; sweep: Sweep }
  | { type: 'live'; live: Live }
  | { type: 'ended' };

type StreamEvent = z.infer<typeof zClassStreamEvent>;
export type ClassStreamEventName = StreamEvent['type'];
export const CLASS_STREAM_EVENTS = zClassStreamEvent.options.map((o) => o.shape.type.value);

/** The checked event as the classroom's state machine takes it. */
function decoded(event: StreamEvent): ClassStreamEvent | string {
  switch (event.type) {
    case 'class':
      return { type: 'class', klass: event.data };
    case 'presentation':
      return { type: 'presentation', presentation: event.data };
    case 'run_event': {
      const { run_id, seq, type, data } = event.data;
      const checked = checkRunEvent(type, seq, data);
      return checked.ok ? { type: 'run_event', runId: run_id, frame: checked.frame } : checked.error;
    }
    case 'sweep':
      return { type: 'sweep', sweep: event.data };
    case 'live':
      return { type: 'live', live: event.data };
    case 'ended':
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
  if (!(CLASS_STREAM_EVENTS as string[]).includes(event)) {
    return { ok: false, error: `unknown class event "${event}"` };
  }
  // Whatever `ended` carries, the class is over.
  if (event === 'ended') return { ok: true, event: { type: 'ended' } };
  let data: unknown = null;
  if (rawData.trim() !== '') {
    try {
      data = JSON.parse(rawData);
    } catch {
      return { ok: false, error: `class event "${event}" is not JSON` };
    }
  }
  const parsed = zClassStreamEvent.safeParse({ type: event, data });
  const result = parsed.success ? decoded(parsed.data) : z.prettifyError(parsed.error);
  return typeof result === 'string'
    ? { ok: false, error: `class event "${event}" does not match the contract: ${result}` }
    : { ok: true, event: result };
}
