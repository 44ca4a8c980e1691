import { parseRunEventFrame, type RunEventFrame } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aRun, doneData, progress } from '@/testing/fixtures';

import {
  describeWait,
  onMeasuredMachine,
  widgetShows,
  initialRunState,
  isCancellable,
  noteText,
  runReducer,
  runStateLabel,
  type RunAction,
  type RunState,
} from './run-state';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

function frame(type: string, seq: number, data: unknown): RunEventFrame {
  const parsed = parseRunEventFrame(type, String(seq), JSON.stringify(data));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.frame;
}

const event = (type: string, seq: number, data: unknown): RunAction => ({ type: 'event', frame: frame(type, seq, data) });

function run(actions: RunAction[], from: RunState = initialRunState): RunState {
  return actions.reduce(runReducer, from);
}

const created: RunAction = { type: 'created', runId: 'r1', status: 'queued', position: 2 };

describe('runReducer', () => {
  it('walks queued → started → warm-up → measure → done', () => {
    let state = run([{ type: 'submit' }]);
    expect(runStateLabel(state, t)).toBe('submitting…');

    state = run([created], state);
    expect(runStateLabel(state, t)).toBe('Waiting: number 2 in the queue');
    expect(isCancellable(state)).toBe(true);

    state = run([event('queued', 1, { position: 2 }), event('queued', 2, { position: 1 })], state);
    expect(runStateLabel(state, t)).toBe('Waiting: number 1 in the queue');

    state = run([event('started', 3, { server: 'c-epoll', server_cpus: '0', loadgen_cpus: '1' })], state);
    expect(runStateLabel(state, t)).toBe('starting');

    state = run([event('progress', 4, progress(1, 'warmup')), event('server_stats', 5, { t_s: 1, cpu_percent: 80, memory_bytes: 2 ** 20, pids: 1 })], state);
    expect(runStateLabel(state, t)).toBe('warming up');
    expect(state.stats).toEqual([{ t: 1, cpuPercent: 80, memoryBytes: 2 ** 20 }]);

    state = run([event('progress', 6, progress(2, 'measure')), event('progress', 7, progress(3, 'measure'))], state);
    expect(runStateLabel(state, t)).toBe('measuring');
    expect(state.progress.map((p) => [p.t, p.phase])).toEqual([
      [1, 'warmup'],
      [2, 'measure'],
      [3, 'measure'],
    ]);

    state = run([event('done', 8, doneData)], state);
    expect(runStateLabel(state, t)).toBe('done');
    expect(state.result?.summary.qps).toBe(51234.5);
    expect(state.connection).toBe('closed');
    expect(isCancellable(state)).toBe(false);
  });

  it('shows the failure reason and keeps the server log lines', () => {
    const state = run([
      created,
      event('started', 1, { server: 'c-epoll' }),
      event('failed', 2, { reason: 'verify_failed: server sent 0 bytes', logs: ['c-epoll: listening', 'segfault'] }),
    ]);
    expect(runStateLabel(state, t)).toBe('failed: verify_failed: server sent 0 bytes');
    expect(state.failure?.logs).toEqual(['c-epoll: listening', 'segfault']);
  });

  it('calls a cancelled run cancelled, with the reason, as the instructor’s queue does (issue 26.6)', () => {
    const state = run([created, event('failed', 1, { reason: 'the class ended before it started', logs: [], cancelled: true })]);
    expect(state.phase).toBe('cancelled');
    expect(runStateLabel(state, t)).toBe('cancelled: the class ended before it started');
    expect(isCancellable(state)).toBe(false);
  });

  it('ignores events replayed after a reconnect (same or lower id)', () => {
    const first = run([
      created,
      event('started', 1, { server: 'c-epoll' }),
      event('progress', 2, progress(1, 'warmup')),
      event('progress', 3, progress(2, 'measure')),
    ]);
    // The browser reconnects with Last-Event-ID: 2 and the server resends #2 and #3, then #4.
    const replayed = run(
      [event('progress', 2, progress(1, 'warmup')), event('progress', 3, progress(2, 'measure')), event('progress', 4, progress(3, 'measure'))],
      first,
    );
    expect(replayed.progress.map((p) => p.t)).toEqual([1, 2, 3]);
    expect(replayed.lastSeq).toBe(4);
    // A replayed event leaves the state object untouched.
    expect(runReducer(replayed, event('progress', 4, progress(3, 'measure')))).toBe(replayed);
  });

  it('does not move a finished run again', () => {
    const done = run([created, event('done', 1, doneData)]);
    const after = run([event('progress', 2, progress(9, 'measure')), event('failed', 3, { reason: 'late' })], done);
    expect(runStateLabel(after, t)).toBe('done');
    expect(after.progress).toHaveLength(0);
  });

  it('says the place in the queue and the server’s estimate of the wait', () => {
    // POST's answer first, then the queued events as the queue moves.
    let state = run([{ ...created, position: 3, waitS: 41.6 }]);
    expect(runStateLabel(state, t)).toBe('Waiting: number 3 in the queue, about 42 s');
    state = run([event('queued', 1, { position: 3, wait_s: 40 })], state);
    expect(runStateLabel(state, t)).toBe('Waiting: number 3 in the queue, about 40 s');
    state = run([event('queued', 2, { position: 2, wait_s: 200 })], state);
    expect(runStateLabel(state, t)).toBe('Waiting: number 2 in the queue, about 3 min');
    state = run([event('queued', 3, { position: 1, wait_s: 0 })], state);
    expect(runStateLabel(state, t)).toBe('Waiting: number 1 in the queue');
    state = run([event('started', 4, { server: 'c-epoll' })], state);
    expect(state.waitS).toBeNull();
    // A recording made before the server sent estimates: the place alone.
    expect(runStateLabel(run([created, event('queued', 1, { position: 4 })]), t)).toBe('Waiting: number 4 in the queue');
  });

  it('says a run held by a paused class keeps its place, and the place again once resumed', () => {
    let state = run([{ ...created, position: null, waitS: null, held: true }]);
    expect(runStateLabel(state, t)).toBe("Your class's runs are paused by the instructor; yours keeps its place");
    state = run([{ ...created, position: 2, waitS: 30 }, event('queued', 1, { position: null, wait_s: null, held: true })]);
    expect(state.held).toBe(true);
    expect(state.position).toBeNull();
    expect(runStateLabel(state, t)).toBe(t('state.held'));
    expect(isCancellable(state)).toBe(true);
    state = run([event('queued', 2, { position: 2, wait_s: 25 })], state);
    expect(state.held).toBe(false);
    expect(runStateLabel(state, t)).toBe('Waiting: number 2 in the queue, about 25 s');
    // Cancelled while held: nothing is waiting any more.
    const cancelled = run([event('queued', 3, { position: null, wait_s: null, held: true }), { type: 'cancelled' }], state);
    expect(cancelled.held).toBe(false);
    expect(runStateLabel(cancelled, t)).toBe('cancelled');
  });

  it('says waits the way people say them', () => {
    expect(describeWait(0.4, t)).toBeNull();
    expect(describeWait(7, t)).toBe('about 7 s');
    expect(describeWait(89, t)).toBe('about 89 s');
    expect(describeWait(150, t)).toBe('about 3 min');
  });

  it('does not go back to queued once started', () => {
    const state = run([created, event('started', 1, { server: 'c-epoll' }), event('queued', 2, { position: 1 })]);
    expect(runStateLabel(state, t)).toBe('starting');
  });

  it('goes back to the queue, saying why, when its runner was lost before the load began', () => {
    const reason = 'runner lab-2 lost at 08:01:02 UTC, before it began measuring: queued again';
    let state = run([created, event('started', 1, { server: 'c-epoll' }), event('requeued', 2, { reason })]);
    expect(state.phase).toBe('queued');
    expect(state.notes).toEqual([{ text: reason }]);
    state = run([event('queued', 3, { position: 1, wait_s: 0 })], state);
    expect(runStateLabel(state, t)).toBe('Waiting: number 1 in the queue');
  });

  it('ignores events when no run is attached', () => {
    expect(runReducer(initialRunState, event('progress', 1, progress(1, 'warmup')))).toBe(initialRunState);
  });

  it('reports a rejected submission as failed', () => {
    const state = run([{ type: 'submit' }, { type: 'submit-failed', reason: 'connections: out of range' }]);
    expect(runStateLabel(state, t)).toBe('failed: connections: out of range');
  });

  it('cancels a live run but not a finished one', () => {
    expect(runStateLabel(run([created, { type: 'cancelled' }]), t)).toBe('cancelled');
    expect(runStateLabel(run([created, event('done', 1, doneData), { type: 'cancelled' }]), t)).toBe('done');
  });

  it('settles from GET /api/runs/{id} when the stream is gone', () => {
    const base = run([created, event('started', 1, { server: 'c-epoll' })]);
    const failed = runReducer(base, { type: 'resolved', run: aRun({ status: 'failed', result: null, error: 'oom' }) });
    expect(runStateLabel(failed, t)).toBe('failed: oom');
    expect(failed.failure?.logs).toEqual([]);
    const unexplained = runReducer(base, { type: 'resolved', run: aRun({ status: 'failed', result: null, error: null }) });
    expect(runStateLabel(unexplained, t)).toBe('failed: the run failed (no reason recorded)');
    const done = runReducer(base, { type: 'resolved', run: aRun({ status: 'done', result: doneData }) });
    expect(done.result?.valid).toBe(true);
    const cancelled = runReducer(base, { type: 'resolved', run: aRun({ status: 'cancelled', result: null }) });
    expect(runStateLabel(cancelled, t)).toBe('cancelled');
    const other = runReducer(base, { type: 'resolved', run: aRun({ id: 'r2', status: 'failed', error: 'x' }) });
    expect(runStateLabel(other, t)).toBe('starting');
  });

  it('keeps at most a few distinct notes', () => {
    let state = run([created]);
    for (let i = 0; i < 8; i++) state = runReducer(state, { type: 'bad-event', error: `bad ${i % 6}` });
    expect(state.notes).toHaveLength(5);
  });
});

describe('the labels in Chinese', () => {
  it('says the queue, the wait and a failure without a reason as a Chinese reader would', async () => {
    await i18next.loadLanguages('zh');
    const zh = i18next.getFixedT('zh', 'bench');
    const queued = runReducer(initialRunState, { type: 'created', runId: 'r1', status: 'queued', position: 3, waitS: 42 });
    expect(runStateLabel(queued, zh)).toBe('排队中：第 3 位，约 42 秒');
    expect(describeWait(150, zh)).toBe('约 3 分钟');
    const failed = runReducer(queued, { type: 'resolved', run: aRun({ id: 'r1', status: 'failed', error: null }) });
    expect(runStateLabel(failed, zh)).toBe('失败：运行失败（未记录原因）');
    // Our own notes are kept as keys, so they are said in the language shown when shown.
    const built = runReducer(queued, event('build', 1, { t_s: 0, status: 'compiled', seconds: 2.5 }));
    expect(built.notes.map((note) => noteText(note, zh))).toEqual(['你修改的服务器编译用时 2.5 秒']);
    expect(built.notes.map((note) => noteText(note, t))).toEqual(['your edited server compiled in 2.5 s']);
  });
});

describe('the page on the machine it measures', () => {
  it('is one opened by a loopback name', () => {
    for (const name of ['localhost', 'LOCALHOST', 'course.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect(onMeasuredMachine(name), name).toBe(true);
    for (const name of ['192.168.1.20', 'lab.example.org', '10.0.0.5', 'fe80::1', '128.0.0.1']) expect(onMeasuredMachine(name), name).toBe(false);
  });
});

describe('what a widget shows', () => {
  it('shows the reference before a run, the live result during one, and after a cancel what was there before', () => {
    expect(widgetShows('idle', null, true)).toEqual({ kept: null, showingRecorded: true, afterCancel: null });
    expect(widgetShows('measure', 'first', true)).toEqual({ kept: null, showingRecorded: false, afterCancel: null });
    expect(widgetShows('cancelled', 'first', true)).toEqual({ kept: 'first', showingRecorded: false, afterCancel: 'previous' });
    expect(widgetShows('cancelled', null, true)).toEqual({ kept: null, showingRecorded: true, afterCancel: 'reference' });
    expect(widgetShows('cancelled', null, false)).toEqual({ kept: null, showingRecorded: false, afterCancel: null });
  });
});
