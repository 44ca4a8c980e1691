/**
 * The state of one edited server's build and check, driven by POST /api/variants's answer and
 * the check run's SSE events: queued, started, `build` (compiled or found built, with the
 * compiler's diagnostics), one `check` per protocol, then `checked` or `failed` (with the
 * diagnostics that stopped the build, or the check that failed). An exercise's answer is
 * checked by a run that goes on to measure it: `progress` while the load runs, then `done`
 * (measured). As in the bench's runs, an event at or below the last one applied is a replay
 * after a reconnect and is ignored.
 */
import type { TFunction } from 'i18next';
import type { z } from 'zod';

import type { zCheckData, zCheckOutcome, zCheckResult, zDiagnostic } from '@/lib/api/generated/zod.gen';
import type { DoneEvent, ProgressEvent, Run, RunEventFrame } from '@/lib/api-schemas';
import { formatInt, formatQps } from '@/lib/format';
import { LEFT_QUEUE, NO_RUN, queuePlace, type FollowedRun, type RunStreamAction } from '@/lib/run-stream';

export type Diagnostic = z.infer<typeof zDiagnostic>;
export type CheckData = z.infer<typeof zCheckData>;
export type CheckOutcome = z.infer<typeof zCheckOutcome>;
export type CheckResult = z.infer<typeof zCheckResult>;

export type CheckPhase = 'idle' | 'queued' | 'building' | 'checking' | 'checked' | 'measuring' | 'measured' | 'failed' | 'cancelled';

/** What POST /api/variants refused (422, 429) or why it could not be sent: shown beside the
 *  button, the file left as it is. */
export interface Refusal {
  /** The API's words (or why it could not be reached). */
  message: string;
  /** A 429: too many builds at once, to try again later. */
  tooMany: boolean;
  /** 429: the seconds the server asks to wait (Retry-After). */
  retryAfterS: number | null;
}

export interface Failure {
  /** The run's own words; null when it recorded none. */
  reason: string | null;
  logs: string[];
  diagnostics: Diagnostic[];
  /** The protocol's check that failed, when the build passed and a check did not. */
  check: CheckOutcome | null;
}

export interface BuildNews {
  status: 'compiled' | 'cached' | 'failed';
  seconds: number | null;
  diagnostics: Diagnostic[];
}

/** One interval of the measured part of an exercise's run, as its line draws it. */
export interface MeasurePoint {
  t_s: number;
  qps: number;
}

/** The measured part of an exercise's run: where it is, and what it has measured. */
export interface MeasureNews {
  phase: ProgressEvent['phase'];
  t_s: number;
  qps: number;
  /** The errors of the measured intervals so far (each interval says its own). */
  errors: number;
  /** The measured intervals (warm-up left out), for a small QPS line. */
  points: MeasurePoint[];
  /** Once done: the run's figures over its measured seconds. */
  summary: { qps: number; errors: number; duration_s: number } | null;
}

export interface CheckState extends FollowedRun {
  /** POST /api/variants is on its way; the last build's outcome stays on show meanwhile. */
  sending: boolean;
  variantId: string | null;
  phase: CheckPhase;
  build: BuildNews | null;
  /** Each protocol's check as it came. */
  checks: CheckData[];
  result: CheckResult | null;
  /** An exercise's run, once it measures. */
  measure: MeasureNews | null;
  failure: Failure | null;
  refusal: Refusal | null;
  notes: Note[];
}

/**
 * A note below the outcome: words that came with the run (a requeue's reason, a malformed
 * event), or one of the page's own, kept as what happened and put in words when shown, so it
 * follows the interface's language.
 */
export type Note =
  | { kind: 'said'; text: string }
  | { kind: 'lost-connection' }
  | { kind: 'cancel-failed'; detail: string };

export const initialCheckState: CheckState = {
  ...NO_RUN,
  sending: false,
  variantId: null,
  phase: 'idle',
  build: null,
  checks: [],
  result: null,
  measure: null,
  failure: null,
  refusal: null,
  notes: [],
};

export type CheckAction =
  | RunStreamAction
  | { type: 'submit' }
  | { type: 'created'; variantId: string; runId: string; position: number | null; waitS: number | null; held: boolean }
  | { type: 'refused'; refusal: Refusal }
  /** Following a check run known by id (after a reload, or a variant's page). */
  | { type: 'attach'; variantId: string; run: Run }
  | { type: 'note'; note: Note };

const TERMINAL: ReadonlySet<CheckPhase> = new Set(['checked', 'measured', 'failed', 'cancelled']);
const MAX_NOTES = 5;
/** A line of at most this many intervals: a long run keeps its latest. */
const MAX_POINTS = 300;

export function isFinished(phase: CheckPhase): boolean {
  return TERMINAL.has(phase);
}

/** Built and every check passed: a check alone (checked), or an exercise's run that went on
 *  to measure (measured). Such a variant can be benchmarked. */
export function passedChecks(phase: CheckPhase): boolean {
  return phase === 'checked' || phase === 'measured';
}

/** From Build & check until the run ends: the button waits. */
export function isBuilding(state: CheckState): boolean {
  return state.sending || (state.phase !== 'idle' && !isFinished(state.phase));
}

function sameNote(a: Note, b: Note): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function addNote(state: CheckState, note: Note): CheckState {
  if (state.notes.some((n) => sameNote(n, note))) return state;
  return { ...state, notes: [...state.notes, note].slice(-MAX_NOTES) };
}

function phaseOf(run: Run): CheckPhase {
  switch (run.status) {
    case 'queued':
      return 'queued';
    case 'running':
      return 'building';
    case 'done':
      // A check alone ends checked; an exercise's run goes on to measure.
      return run.request.check_only ? 'checked' : 'measured';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

function applyFrame(state: CheckState, frame: RunEventFrame): CheckState {
  if (frame.seq <= state.lastSeq) return state;
  const next: CheckState = { ...state, lastSeq: frame.seq };
  if (isFinished(state.phase)) return next;
  switch (frame.type) {
    case 'queued':
      return { ...next, phase: 'queued', ...queuePlace(frame.data) };
    case 'requeued':
      return addNote({ ...next, ...LEFT_QUEUE, phase: 'queued' }, { kind: 'said', text: frame.data.reason });
    case 'started':
      return { ...next, ...LEFT_QUEUE, phase: 'building' };
    case 'build': {
      const { status, seconds, diagnostics } = frame.data;
      const build: BuildNews = { status, seconds: seconds ?? null, diagnostics };
      return { ...next, ...LEFT_QUEUE, phase: status === 'failed' ? 'building' : 'checking', build };
    }
    case 'check':
      return { ...next, ...LEFT_QUEUE, phase: 'checking', checks: [...state.checks, frame.data] };
    case 'checked':
      return { ...next, ...LEFT_QUEUE, phase: 'checked', result: frame.data };
    case 'failed': {
      const { reason, logs, cancelled, diagnostics, check } = frame.data;
      if (cancelled) return { ...next, ...LEFT_QUEUE, phase: 'cancelled' };
      return {
        ...next,
        ...LEFT_QUEUE,
        phase: 'failed',
        failure: { reason, logs, diagnostics: diagnostics ?? [], check: check ?? null },
      };
    }
    case 'progress':
      return { ...next, ...LEFT_QUEUE, phase: 'measuring', measure: measured(state.measure, frame.data) };
    case 'done':
      return { ...next, ...LEFT_QUEUE, phase: 'measured', measure: summed(state.measure, frame.data) };
    // The server's own figures and the repetitions: the run's page shows them, not this one.
    case 'server_stats':
    case 'repetition':
      return next;
  }
}

/** The measure with one more interval: the line and the error count take the measured ones
 *  (the warm-up's are not judged). */
function measured(measure: MeasureNews | null, progress: ProgressEvent): MeasureNews {
  const points = measure?.points ?? [];
  const errors = measure?.errors ?? 0;
  const { phase, t_s, qps } = progress;
  const measuring = phase === 'measure';
  return {
    phase,
    t_s,
    qps,
    errors: measuring ? errors + progress.errors : errors,
    points: measuring ? [...points, { t_s, qps }].slice(-MAX_POINTS) : points,
    summary: null,
  };
}

function summed(measure: MeasureNews | null, result: DoneEvent): MeasureNews {
  const { qps, error_total, duration_s } = result.summary;
  return {
    phase: 'measure',
    t_s: measure?.t_s ?? duration_s,
    qps: measure?.qps ?? qps,
    errors: measure?.errors ?? error_total,
    points: measure?.points ?? [],
    summary: { qps, errors: error_total, duration_s },
  };
}

export function checkReducer(state: CheckState, action: CheckAction): CheckState {
  switch (action.type) {
    case 'submit':
      return { ...state, sending: true, refusal: null };
    case 'created':
      return {
        ...initialCheckState,
        variantId: action.variantId,
        runId: action.runId,
        phase: 'queued',
        position: action.position,
        waitS: action.waitS,
        held: action.held,
      };
    case 'refused':
      // The last build's outcome stays on show: the refusal is about this attempt only.
      return { ...state, sending: false, refusal: action.refusal };
    case 'attach': {
      const phase = phaseOf(action.run);
      return {
        ...initialCheckState,
        variantId: action.variantId,
        runId: action.run.id,
        // Its events replay from #1 and bring the outcome with its diagnostics.
        phase: isFinished(phase) ? 'building' : phase,
        ...queuePlace(action.run),
      };
    }
    case 'event':
      if (state.runId === null) return state;
      return applyFrame(state, action.frame);
    case 'bad-event':
      return addNote(state, { kind: 'said', text: action.error });
    case 'connection':
      return state; // the page says how the build goes, not how its stream is connected
    case 'stream-lost':
      return addNote(state, { kind: 'lost-connection' });
    case 'resolved': {
      if (action.run.id !== state.runId || isFinished(state.phase)) return state;
      const phase = phaseOf(action.run);
      if (phase === 'checked') return { ...state, ...LEFT_QUEUE, phase, result: action.run.check ?? null };
      if (phase === 'measured') {
        const result = action.run.result;
        return { ...state, ...LEFT_QUEUE, phase, measure: result ? summed(state.measure, result) : state.measure };
      }
      if (phase === 'failed') {
        const reason = action.run.error ?? null;
        return { ...state, ...LEFT_QUEUE, phase, failure: { reason, logs: [], diagnostics: [], check: null } };
      }
      if (phase === 'cancelled') return { ...state, ...LEFT_QUEUE, phase };
      return state;
    }
    case 'note':
      return addNote(state, action.note);
  }
}

/** One empty list, so that "none" is the same value from one render to the next. */
const NO_DIAGNOSTICS: Diagnostic[] = [];

/** The compiler's messages to show: those that stopped the build, or the warnings of one that
 *  passed. */
export function diagnosticsOf(state: CheckState): Diagnostic[] {
  if (state.failure?.diagnostics.length) return state.failure.diagnostics;
  return state.result?.build.diagnostics ?? state.build?.diagnostics ?? NO_DIAGNOSTICS;
}

/** The `edit` namespace's t(): the words below take it, so they follow the interface's language. */
export type EditT = TFunction<'edit'>;

function describeQueue({ position, waitS, held }: CheckState, t: EditT): string {
  if (held) return t('check.queue.held');
  if (position === null) return t('check.queue.waiting');
  if (waitS !== null && waitS >= 1) return t('check.queue.positionAbout', { position, seconds: Math.round(waitS) });
  return t('check.queue.position', { position });
}

function describeBuild(build: Pick<BuildNews, 'status'> & { seconds?: number | null }, t: EditT): string {
  if (build.status === 'cached') return t('check.build.cached');
  if (build.status === 'failed') return t('check.build.failed');
  return t('check.build.compiled', { seconds: build.seconds != null ? build.seconds.toFixed(1) : '?' });
}

/** One protocol's check, as a line: "echo: 5 checks passed" or which one failed. */
export function describeCheck(check: CheckData | CheckOutcome, t: EditT): string {
  const passed = t('check.protocol.passed', { count: check.passed.length });
  const { protocol } = check;
  if (check.ok) return t('check.protocol.ok', { protocol, passed });
  if (check.failed) return t('check.protocol.failedCheck', { protocol, check: check.failed.check, passed });
  return t('check.protocol.failed', { protocol, passed });
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

function errorCount(errors: number, t: EditT): string {
  return t('check.errors', { count: errors, errors: formatInt(errors) });
}

/** "measuring at 3.0 s: 12,345 requests/s, 0 errors so far" (or "warming up at 1.0 s: …"). */
export function describeMeasure(measure: MeasureNews | null, t: EditT): string {
  if (!measure) return t('check.measure.starting');
  const at = { seconds: measure.t_s.toFixed(1), qps: formatQps(measure.qps) };
  if (measure.phase === 'warmup') return t('check.measure.warmingUp', at);
  return t('check.measure.measuring', { ...at, errors: errorCount(measure.errors, t) });
}

/** A note in words. */
export function describeNote(note: Note, t: EditT): string {
  switch (note.kind) {
    case 'said':
      return note.text;
    case 'lost-connection':
      return t('check.note.lostConnection');
    case 'cancel-failed':
      return t('check.note.cancelFailed', { detail: note.detail });
  }
}

/** The one-line status said in the live region (`data-testid="check-state"`). */
export function checkStateLabel(state: CheckState, t: EditT): string {
  if (state.sending) return t('check.phase.sending');
  switch (state.phase) {
    case 'idle':
      return t('check.phase.idle');
    case 'queued':
      return describeQueue(state, t);
    case 'building':
      return state.build ? t('check.phase.buildingAfter', { build: describeBuild(state.build, t) }) : t('check.phase.building');
    case 'checking': {
      const last = state.checks.at(-1);
      const check = last ? describeCheck(last, t) : null;
      if (!state.build) return check ? t('check.phase.checkingOne', { check }) : t('check.phase.checking');
      const build = describeBuild(state.build, t);
      return check ? t('check.phase.builtCheckingOne', { build, check }) : t('check.phase.builtChecking', { build });
    }
    case 'checked': {
      const build = state.result?.build ?? state.build;
      return build ? t('check.phase.checkedBuilt', { build: describeBuild(build, t) }) : t('check.phase.checked');
    }
    case 'measuring':
      return t('check.phase.measuring', { measure: describeMeasure(state.measure, t) });
    case 'measured': {
      const summary = state.measure?.summary;
      if (!summary) return t('check.phase.measured');
      return t('check.phase.measuredFigures', {
        qps: formatQps(summary.qps),
        seconds: formatSeconds(summary.duration_s),
        errors: errorCount(summary.errors, t),
      });
    }
    case 'failed':
      return t('check.phase.failed', { reason: state.failure?.reason ?? t('check.noReason') });
    case 'cancelled':
      return t('check.phase.cancelled');
  }
}
