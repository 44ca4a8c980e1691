/**
 * What every state that follows a run's SSE stream has in common (the bench's run-state, the
 * editor's check-state): the run's place in the queue, the last event applied, and the actions
 * the stream (src/hooks/use-run-stream.ts) dispatches to it.
 */
import type { Run, RunEventFrame, RunEventType } from './api-schemas';

/** The part of a state that follows one run. */
export interface FollowedRun {
  runId: string | null;
  /** Place in the queue while queued, 1 = next to start. */
  position: number | null;
  /** The server's estimate of the seconds until the run starts, while queued. */
  waitS: number | null;
  /** Queued in a class the instructor paused: it keeps its place (position null) until resumed. */
  held: boolean;
  /** Highest SSE sequence number applied (0 = none yet): an event at or below it is a replay
   *  after a reconnect. */
  lastSeq: number;
}

/** Following no run yet. */
export const NO_RUN = { runId: null, position: null, waitS: null, held: false, lastSeq: 0 } as const;

/** A run that is no longer waiting has no place, wait or hold. */
export const LEFT_QUEUE = { position: null, waitS: null, held: false } as const;

/** The place a run's record or its `queued` event gives. */
export function queuePlace(of: { position?: number | null; wait_s?: number | null; held: boolean }): Pick<FollowedRun, 'position' | 'waitS' | 'held'> {
  return { position: of.position ?? null, waitS: of.wait_s ?? null, held: of.held };
}

/** The run's record says it is over: nothing will move it again. */
export function hasRunEnded(run: Run): boolean {
  return run.status === 'done' || run.status === 'failed' || run.status === 'cancelled';
}

/** The events after which the server ends a run's stream (the backend's TERMINAL_EVENTS). */
export const LAST_RUN_EVENTS: ReadonlySet<RunEventType> = new Set(['done', 'checked', 'failed']);

export type StreamConnection = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** What the stream tells the state it feeds; a reducer that follows a run handles each. */
export type RunStreamAction =
  | { type: 'event'; frame: RunEventFrame }
  /** A frame that did not parse: the parser's words. */
  | { type: 'bad-event'; error: string }
  | { type: 'connection'; state: StreamConnection }
  /** The stream is gone: GET /api/runs/{id} says how the run ended. */
  | { type: 'resolved'; run: Run }
  /** The stream could not be opened again: the run is no longer followed. */
  | { type: 'stream-lost' };
