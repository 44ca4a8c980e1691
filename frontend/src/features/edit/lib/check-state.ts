/**
 * The state of one edited server's build and check, driven by POST /api/variants's answer and
 * the check run's SSE events: queued, started, `build` (compiled or found built, with the
 * compiler's diagnostics), one `check` per protocol, then `checked` or `failed` (with the
 * diagnostics that stopped the build, or the check that failed). An exercise's answer is
 * checked by a run that goes on to measure it: `progress` while the load runs, then `done`
 * (measured). As in the bench's runs, an event at or below the last one applied is a replay
 * after a reconnect and is ignored.
 */
import type { z } from 'zod';

import type { zCheckData, zCheckOutcome, zCheckResult, zDiagnostic } from '@/lib/api/generated/zod.gen';
import type { DoneEvent, ProgressEvent, Run, RunEventFrame } from '@/lib/api-schemas';
import { formatInt, formatQps } from '@/lib/format';

export type Diagnostic = z.infer<typeof zDiagnostic>;
export type CheckData = z.infer<typeof zCheckData>;
export type CheckOutcome = z.infer<typeof zCheckOutcome>;
export type CheckResult = z.infer<typeof zCheckResult>;

export type CheckPhase = 'idle' | 'queued' | 'building' | 'checking' | 'checked' | 'measuring' | 'measured' | 'failed' | 'cancelled';

/** What POST /api/variants refused (422, 429) or why it could not be sent: shown beside the
 *  button, the file left as it is. */
export interface Refusal {
  message: string;
  /** 429: the seconds the server asks to wait (Retry-After). */
  retryAfterS: number | null;
}

export interface Failure {
  reason: string;
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

export interface CheckState {
  /** POST /api/variants is on its way; the last build's outcome stays on show meanwhile. */
  sending: boolean;
  variantId: string | null;
  runId: string | null;
  phase: CheckPhase;
  position: number | null;
  waitS: number | null;
  held: boolean;
  lastSeq: number;
  build: BuildNews | null;
  /** Each protocol's check as it came. */
  checks: CheckData[];
  result: CheckResult | null;
  /** An exercise's run, once it measures. */
  measure: MeasureNews | null;
  failure: Failure | null;
  refusal: Refusal | null;
  notes: string[];
}

export const initialCheckState: CheckState = {
  sending: false,
  variantId: null,
  runId: null,
  phase: 'idle',
  position: null,
  waitS: null,
  held: false,
  lastSeq: 0,
  build: null,
  checks: [],
  result: null,
  measure: null,
  failure: null,
  refusal: null,
  notes: [],
};

export type CheckAction =
  | { type: 'submit' }
  | { type: 'created'; variantId: string; runId: string; position: number | null; waitS: number | null; held: boolean }
  | { type: 'refused'; refusal: Refusal }
  /** Following a check run known by id (after a reload, or a variant's page). */
  | { type: 'attach'; variantId: string; run: Run }
  | { type: 'event'; frame: RunEventFrame }
  | { type: 'bad-event'; error: string }
  /** The stream is gone: GET /api/runs/{id} says how the run ended. */
  | { type: 'resolved'; run: Run }
  | { type: 'note'; message: string };

const TERMINAL: ReadonlySet<CheckPhase> = new Set(['checked', 'measured', 'failed', 'cancelled']);
const LEFT_QUEUE = { position: null, waitS: null, held: false } as const;
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

function addNote(state: CheckState, message: string): CheckState {
  if (state.notes.includes(message)) return state;
  return { ...state, notes: [...state.notes, message].slice(-MAX_NOTES) };
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
      return { ...next, phase: 'queued', position: frame.data.position, waitS: frame.data.wait_s ?? null, held: frame.data.held };
    case 'requeued':
      return addNote({ ...next, ...LEFT_QUEUE, phase: 'queued' }, frame.data.reason);
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
        position: action.run.position,
        waitS: action.run.wait_s,
        held: action.run.held,
      };
    }
    case 'event':
      if (state.runId === null) return state;
      return applyFrame(state, action.frame);
    case 'bad-event':
      return addNote(state, action.error);
    case 'resolved': {
      if (action.run.id !== state.runId || isFinished(state.phase)) return state;
      const phase = phaseOf(action.run);
      if (phase === 'checked') return { ...state, ...LEFT_QUEUE, phase, result: action.run.check ?? null };
      if (phase === 'measured') {
        const result = action.run.result;
        return { ...state, ...LEFT_QUEUE, phase, measure: result ? summed(state.measure, result) : state.measure };
      }
      if (phase === 'failed') {
        const reason = action.run.error ?? 'the check failed (no reason recorded)';
        return { ...state, ...LEFT_QUEUE, phase, failure: { reason, logs: [], diagnostics: [], check: null } };
      }
      if (phase === 'cancelled') return { ...state, ...LEFT_QUEUE, phase };
      return state;
    }
    case 'note':
      return addNote(state, action.message);
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

function describeQueue({ position, waitS, held }: CheckState): string {
  if (held) return 'Waiting: your class’s runs are paused by the instructor; your build keeps its place';
  if (position === null) return 'Waiting in the queue';
  const wait = waitS !== null && waitS >= 1 ? `, about ${Math.round(waitS)} s` : '';
  return `Waiting: number ${position} in the queue${wait}`;
}

function describeBuild(build: Pick<BuildNews, 'status'> & { seconds?: number | null }): string {
  if (build.status === 'cached') return 'built before: using that build';
  if (build.status === 'failed') return 'did not compile';
  return `compiled in ${build.seconds != null ? build.seconds.toFixed(1) : '?'} s`;
}

/** One protocol's check, as a line: "echo: 5 checks passed" or which one failed. */
export function describeCheck(check: CheckData | CheckOutcome): string {
  const passed = `${check.passed.length} check${check.passed.length === 1 ? '' : 's'} passed`;
  if (check.ok) return `${check.protocol}: ${passed}`;
  return `${check.protocol}: ${check.failed ? `failed ${check.failed.check}` : 'failed'} (${passed})`;
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

function errorCount(errors: number): string {
  return `${formatInt(errors)} error${errors === 1 ? '' : 's'}`;
}

/** "measuring at 3.0 s: 12,345 requests/s, 0 errors so far" (or "warming up at 1.0 s: …"). */
export function describeMeasure(measure: MeasureNews | null): string {
  if (!measure) return 'measuring';
  const at = `at ${measure.t_s.toFixed(1)} s: ${formatQps(measure.qps)} requests/s`;
  if (measure.phase === 'warmup') return `warming up ${at}`;
  return `measuring ${at}, ${errorCount(measure.errors)} so far`;
}

/** The one-line status said in the live region (`data-testid="check-state"`). */
export function checkStateLabel(state: CheckState): string {
  if (state.sending) return 'sending your file…';
  switch (state.phase) {
    case 'idle':
      return 'not built yet';
    case 'queued':
      return describeQueue(state);
    case 'building':
      return state.build ? `${describeBuild(state.build)}…` : 'building…';
    case 'checking': {
      const built = state.build ? `${describeBuild(state.build)}; ` : '';
      const last = state.checks.at(-1);
      return `${built}checking${last ? ` (${describeCheck(last)})` : ''}…`;
    }
    case 'checked': {
      const build = state.result?.build ?? state.build;
      return `checked: ${build ? `${describeBuild(build)}, ` : ''}every check passed`;
    }
    case 'measuring':
      return `every check passed; ${describeMeasure(state.measure)}…`;
    case 'measured': {
      const summary = state.measure?.summary;
      const figures = summary
        ? `: ${formatQps(summary.qps)} requests/s over ${formatSeconds(summary.duration_s)} s, ${errorCount(summary.errors)}`
        : '';
      return `measured: every check passed, then measured${figures}`;
    }
    case 'failed':
      return `failed: ${state.failure?.reason ?? 'unknown reason'}`;
    case 'cancelled':
      return 'cancelled';
  }
}
