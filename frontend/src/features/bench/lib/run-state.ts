/**
 * The Run widget's state machine, driven by the POST/DELETE answers and the SSE
 * events of one run. Events carry a per-run sequence number (`id:`); anything
 * at or below the last one applied is a replay after a reconnect and is ignored.
 */
import type { TFunction } from 'i18next';

import type { DoneEvent, ProgressEvent, Run, RunEventFrame, RunStatus } from '@/lib/api-schemas';
import { LEFT_QUEUE, NO_RUN, queuePlace, type FollowedRun, type RunStreamAction, type StreamConnection } from '@/lib/run-stream';

export type RunPhase =
  | 'idle'
  | 'submitting'
  | 'queued'
  | 'starting'
  | 'warmup'
  | 'measure'
  | 'done'
  | 'failed'
  | 'cancelled';

export type ConnectionState = 'idle' | StreamConnection;

export interface ProgressPoint {
  t: number;
  phase: ProgressEvent['phase'];
  qps: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export interface StatsPoint {
  t: number;
  cpuPercent: number;
  memoryBytes: number;
}

/**
 * A note beside a run: words as they came (the server's, a frame parser's), or one of ours,
 * kept as its key and values so it is said in the language shown when it is shown.
 */
export type RunNote =
  | { text: string }
  | { key: 'notes.buildCached' | 'notes.compiled' | 'notes.checked' | 'notes.lostStream' | 'notes.cancelFailed'; values?: Record<string, string | number> };

/** A note in words, in the interface's language. */
export function noteText(note: RunNote, t: TFunction<'bench'>): string {
  return 'text' in note ? note.text : t(note.key, note.values ?? {});
}

export interface RunState extends FollowedRun {
  phase: RunPhase;
  server: string | null;
  progress: ProgressPoint[];
  stats: StatsPoint[];
  result: DoneEvent | null;
  /** The reason is null when the run's record has none (it failed without saying why). */
  failure: { reason: string | null; logs: string[] } | null;
  connection: ConnectionState;
  /** Non-fatal problems worth showing (bad frames, a failed cancel…). */
  notes: RunNote[];
}

export const initialRunState: RunState = {
  ...NO_RUN,
  phase: 'idle',
  server: null,
  progress: [],
  stats: [],
  result: null,
  failure: null,
  connection: 'idle',
  notes: [],
};

export type RunAction =
  | RunStreamAction
  | { type: 'submit' }
  | {
      type: 'created';
      runId: string;
      status: RunStatus;
      position: number | null;
      waitS?: number | null;
      held?: boolean;
    }
  | { type: 'submit-failed'; reason: string }
  | { type: 'attach'; run: Run }
  /** A run known only by its id (a series' point): its stream from #1 says the rest. */
  | { type: 'follow'; runId: string }
  | { type: 'cancelled' }
  | { type: 'note'; note: RunNote };

const TERMINAL: ReadonlySet<RunPhase> = new Set(['done', 'failed', 'cancelled']);
const MAX_NOTES = 5;

/** What went back on show after a cancel: the learner's previous result, the reference, or
 *  nothing (neither was there). */
export type KeptAfterCancel = 'previous' | 'reference' | null;

/**
 * What a run or series widget shows. Until the learner runs it, the recorded reference (when
 * there is one); then their live result; and a cancel takes back the run, not what was on show
 * before it: their previous result (`previous`, of this widget), else the reference.
 */
export function widgetShows<T>(
  phase: string,
  previous: T | null,
  hasRecorded: boolean,
): { kept: T | null; showingRecorded: boolean; afterCancel: KeptAfterCancel } {
  const cancelled = phase === 'cancelled';
  const kept = cancelled ? previous : null;
  const showingRecorded = (phase === 'idle' || (cancelled && kept === null)) && hasRecorded;
  const afterCancel: KeptAfterCancel = !cancelled ? null : kept !== null ? 'previous' : showingRecorded ? 'reference' : null;
  return { kept, showingRecorded, afterCancel };
}

/** A page opened by a loopback name runs on the machine that serves it, and so on the one the
 *  course measures (`make up` serves it there; a class's students open it by the host's
 *  address from their own devices). */
export function onMeasuredMachine(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** Whether this page runs on the machine it measures: opened by a loopback name, as `make up`
 *  serves the course. A student's browser in a class, or a learner's on another device, is not. */
export const ON_MEASURED_MACHINE = onMeasuredMachine(window.location.hostname);

export function isTerminal(phase: RunPhase): boolean {
  return TERMINAL.has(phase);
}

const BUSY: ReadonlySet<RunPhase> = new Set(['submitting', 'queued', 'starting', 'warmup', 'measure']);

/** From Run until the run ends: Run is disabled, and the charts are up. */
export function isBusy(phase: RunPhase): boolean {
  return BUSY.has(phase);
}

/** True while there is a run on the server that Cancel could stop. */
export function isCancellable(state: RunState): boolean {
  return state.runId !== null && ['queued', 'starting', 'warmup', 'measure'].includes(state.phase);
}

function addNote(state: RunState, note: RunNote): RunState {
  const same = JSON.stringify(note);
  if (state.notes.some((n) => JSON.stringify(n) === same)) return state;
  return { ...state, notes: [...state.notes, note].slice(-MAX_NOTES) };
}

function phaseForStatus(status: RunStatus): RunPhase {
  switch (status) {
    case 'queued':
      return 'queued';
    case 'running':
      return 'starting';
    case 'done':
      return 'done';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

function applyFrame(state: RunState, frame: RunEventFrame): RunState {
  if (frame.seq <= state.lastSeq) return state; // replayed after a reconnect
  const next: RunState = { ...state, lastSeq: frame.seq };
  // Once a run has ended nothing may move it again, but the sequence still advances.
  if (isTerminal(state.phase)) return next;

  switch (frame.type) {
    case 'queued':
      if (state.phase !== 'queued' && state.phase !== 'submitting') return next;
      return { ...next, phase: 'queued', ...queuePlace(frame.data) };
    case 'repetition':
      // Each repetition's progress events say which they are; nothing to draw here.
      return next;
    case 'requeued':
      // Its `queued` event with the new position comes next.
      return addNote({ ...next, ...LEFT_QUEUE, phase: 'queued' }, { text: frame.data.reason });
    case 'started':
      return { ...next, ...LEFT_QUEUE, phase: 'starting', server: frame.data.server };
    case 'build':
      // A run of an edited server: it is compiled (or found built) before it is measured.
      return addNote(
        { ...next, ...LEFT_QUEUE, phase: 'starting' },
        frame.data.status === 'cached'
          ? { key: 'notes.buildCached' }
          : { key: 'notes.compiled', values: { seconds: frame.data.seconds ?? '?' } },
      );
    case 'check':
      return addNote(
        { ...next, ...LEFT_QUEUE, phase: 'starting' },
        { key: 'notes.checked', values: { protocol: frame.data.protocol } },
      );
    case 'checked':
      // A check run ends here, with no figures: the editor shows it, not the run view.
      return { ...next, ...LEFT_QUEUE, phase: 'done', connection: 'closed' };
    case 'progress': {
      const d = frame.data;
      const point: ProgressPoint = {
        t: d.t_s,
        phase: d.phase,
        qps: d.qps,
        errors: d.errors,
        p50: d.latency_us.p50,
        p90: d.latency_us.p90,
        p99: d.latency_us.p99,
        p999: d.latency_us.p999,
        max: d.latency_us.max,
      };
      return {
        ...next,
        ...LEFT_QUEUE,
        phase: d.phase === 'warmup' ? 'warmup' : 'measure',
        progress: [...state.progress, point],
      };
    }
    case 'server_stats': {
      const d = frame.data;
      return {
        ...next,
        stats: [...state.stats, { t: d.t_s, cpuPercent: d.cpu_percent, memoryBytes: d.memory_bytes }],
      };
    }
    case 'done':
      return { ...next, ...LEFT_QUEUE, phase: 'done', result: frame.data, connection: 'closed' };
    case 'failed':
      // A cancel (its owner's, their instructor's, the class's end) is not a failure: the
      // same word the instructor's queue uses, with the reason kept.
      return {
        ...next,
        ...LEFT_QUEUE,
        phase: frame.data.cancelled ? 'cancelled' : 'failed',
        failure: { reason: frame.data.reason, logs: frame.data.cancelled ? [] : frame.data.logs },
        connection: 'closed',
      };
  }
}

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case 'submit':
      return { ...initialRunState, phase: 'submitting' };
    case 'created':
      return {
        ...initialRunState,
        runId: action.runId,
        phase: phaseForStatus(action.status),
        position: action.position,
        waitS: action.waitS ?? null,
        held: action.held ?? false,
        connection: 'connecting',
      };
    case 'submit-failed':
      return { ...initialRunState, phase: 'failed', failure: { reason: action.reason, logs: [] } };
    case 'attach':
      return {
        ...initialRunState,
        runId: action.run.id,
        server: action.run.server,
        phase: phaseForStatus(action.run.status) === 'queued' ? 'queued' : 'starting',
        ...queuePlace(action.run),
        connection: 'connecting',
      };
    case 'follow':
      return { ...initialRunState, runId: action.runId, phase: 'queued', connection: 'connecting' };
    case 'event':
      if (state.runId === null) return state;
      return applyFrame(state, action.frame);
    case 'bad-event':
      return addNote(state, { text: action.error });
    case 'connection':
      if (state.connection === action.state) return state;
      if (state.connection === 'closed' && action.state !== 'connecting') return state;
      return { ...state, connection: action.state };
    case 'stream-lost':
      return runReducer(addNote(state, { key: 'notes.lostStream' }), { type: 'connection', state: 'closed' });
    case 'resolved': {
      // The event stream is gone; settle the phase from GET /api/runs/{id}.
      if (action.run.id !== state.runId || isTerminal(state.phase)) {
        return state.connection === 'closed' ? state : { ...state, connection: 'closed' };
      }
      const phase = phaseForStatus(action.run.status);
      if (phase === 'done') {
        return { ...state, ...LEFT_QUEUE, phase: 'done', result: action.run.result, connection: 'closed' };
      }
      if (phase === 'failed') {
        return {
          ...state,
          ...LEFT_QUEUE,
          phase: 'failed',
          // The run's record keeps the reason; the logs came only with the stream's `failed`.
          failure: { reason: action.run.error ?? null, logs: [] },
          connection: 'closed',
        };
      }
      if (phase === 'cancelled') {
        return { ...state, ...LEFT_QUEUE, phase: 'cancelled', connection: 'closed' };
      }
      return state;
    }
    case 'cancelled':
      if (isTerminal(state.phase)) return state;
      return { ...state, ...LEFT_QUEUE, phase: 'cancelled', connection: 'closed' };
    case 'note':
      return addNote(state, action.note);
  }
}

/** The server's estimate of a queued run's wait, said the way a person would: it is an
 *  estimate, sent again whenever the queue moves, so the label does not tick between. */
export function describeWait(seconds: number, t: TFunction<'bench'>): string | null {
  if (seconds < 1) return null; // next to start: the position says enough
  if (seconds < 90) return t('state.waitSeconds', { seconds: Math.round(seconds) });
  return t('state.waitMinutes', { minutes: Math.round(seconds / 60) });
}

function queuedLabel({ position, waitS, held }: RunState, t: TFunction<'bench'>): string {
  // The instructor paused the class: the run is not lost, it waits for the resume.
  if (held) return t('state.held');
  if (position === null) return t('state.waiting');
  const wait = waitS === null ? null : describeWait(waitS, t);
  return wait ? t('state.waitingAtFor', { position, wait }) : t('state.waitingAt', { position });
}

/** The text of the visible state label (`data-testid="run-state"`). */
export function runStateLabel(state: RunState, t: TFunction<'bench'>): string {
  switch (state.phase) {
    case 'idle':
      return t('state.idle');
    case 'submitting':
      return t('state.submitting');
    case 'queued':
      return queuedLabel(state, t);
    case 'starting':
      return t('state.starting');
    case 'warmup':
      return t('state.warmup');
    case 'measure':
      return t('state.measure');
    case 'done':
      return t('status.done');
    case 'failed':
      return t('state.failed', { reason: state.failure ? (state.failure.reason ?? t('state.noReasonRecorded')) : t('state.unknownReason') });
    case 'cancelled':
      return state.failure?.reason ? t('state.cancelledBecause', { reason: state.failure.reason }) : t('status.cancelled');
  }
}
