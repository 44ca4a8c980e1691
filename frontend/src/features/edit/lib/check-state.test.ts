import { parseRunEventFrame, type RunEventFrame } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aRun, doneData, latency } from '@/testing/fixtures';

import {
  checkReducer,
  checkStateLabel,
  describeCheck,
  describeMeasure,
  describeNote,
  diagnosticsOf,
  initialCheckState,
  isBuilding,
  type CheckAction,
  type CheckState,
} from './check-state';

function frame(type: string, seq: number, data: unknown): RunEventFrame {
  const parsed = parseRunEventFrame(type, String(seq), JSON.stringify(data));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.frame;
}

const event = (type: string, seq: number, data: unknown): CheckAction => ({ type: 'event', frame: frame(type, seq, data) });
const t = i18next.getFixedT('en', 'edit');
const run = (actions: CheckAction[], from: CheckState = initialCheckState) => actions.reduce(checkReducer, from);

const created: CheckAction = { type: 'created', variantId: 'v1', runId: 'r1', position: 2, waitS: 20, held: false };
const missingSemicolon = {
  severity: 'error',
  message: "expected ';' before '}' token",
  line: 12,
  column: 15,
  end_line: 12,
  end_column: 15,
};
const linker = { severity: 'error', message: "epoll.c:(.text+0x1c): undefined reference to `handle_read'" };
const echoPassed = { t_s: 2.1, protocol: 'echo', ok: true, passed: ['echo-one', 'echo-sizes'], failed: null };
const httpPassed = { t_s: 3.4, protocol: 'http', ok: true, passed: ['http-one', 'http-keep-alive'], failed: null };

describe('checkReducer', () => {
  it('follows a build from the queue through each protocol’s check to checked', () => {
    let state = run([{ type: 'submit' }]);
    expect(isBuilding(state)).toBe(true);
    expect(checkStateLabel(state, t)).toBe('sending your file…');

    state = run([created], state);
    expect(state).toMatchObject({ variantId: 'v1', runId: 'r1', phase: 'queued', sending: false });
    expect(checkStateLabel(state, t)).toBe('Waiting: number 2 in the queue, about 20 s');

    state = run([event('queued', 1, { position: 1, wait_s: 0.5 }), event('started', 2, { server: 'c-epoll' })], state);
    expect(checkStateLabel(state, t)).toBe('building…');

    state = run([event('build', 3, { t_s: 1.2, status: 'compiled', seconds: 1.234, diagnostics: [] })], state);
    expect(checkStateLabel(state, t)).toBe('compiled in 1.2 s; checking…');

    state = run([event('check', 4, echoPassed)], state);
    expect(checkStateLabel(state, t)).toBe('compiled in 1.2 s; checking (echo: 2 checks passed)…');

    state = run([event('check', 5, httpPassed), event('checked', 6, { build: { status: 'compiled', seconds: 1.234, diagnostics: [] }, checks: [echoPassed, httpPassed] })], state);
    expect(state.phase).toBe('checked');
    expect(isBuilding(state)).toBe(false);
    expect(checkStateLabel(state, t)).toBe('checked: compiled in 1.2 s, every check passed');
    expect(state.result?.checks.map((c) => c.protocol)).toEqual(['echo', 'http']);
  });

  it('keeps the diagnostics of a build that failed, the edited file’s and the linker’s', () => {
    const state = run([
      created,
      event('started', 1, { server: 'c-epoll' }),
      event('build', 2, { t_s: 0.8, status: 'failed', seconds: 0.7, diagnostics: [missingSemicolon, linker] }),
      event('failed', 3, { reason: "epoll.c did not compile: line 12: expected ';' before '}' token", logs: [], diagnostics: [missingSemicolon, linker] }),
    ]);
    expect(state.phase).toBe('failed');
    expect(checkStateLabel(state, t)).toBe("failed: epoll.c did not compile: line 12: expected ';' before '}' token");
    expect(diagnosticsOf(state).map((d) => d.line ?? null)).toEqual([12, null]);
    expect(state.failure?.check).toBeNull();
  });

  it('keeps the check that failed, with what was expected and what came', () => {
    const failedCheck = {
      protocol: 'echo',
      ok: false,
      passed: ['echo-one'],
      failed: { check: 'echo-sizes', message: 'reply 3 of 5 was short', expected: '300000 bytes', got: '65536 bytes' },
    };
    const state = run([
      created,
      event('build', 1, { t_s: 0.5, status: 'cached', diagnostics: [] }),
      event('check', 2, { t_s: 1, ...failedCheck }),
      event('failed', 3, { reason: 'your server failed the echo check echo-sizes', logs: ['listening on 7000'], check: failedCheck }),
    ]);
    expect(state.failure).toMatchObject({ check: { failed: { check: 'echo-sizes', expected: '300000 bytes', got: '65536 bytes' } }, logs: ['listening on 7000'] });
    expect(state.checks).toHaveLength(1);
    expect(diagnosticsOf(state)).toEqual([]);
  });

  it('shows a passing build’s warnings, and the same empty list when there are none', () => {
    const warning = { severity: 'warning', message: "unused variable 'n'", line: 40, column: 9, option: '-Wunused-variable' };
    const warned = run([created, event('build', 1, { t_s: 1, status: 'compiled', seconds: 1, diagnostics: [warning] })]);
    expect(diagnosticsOf(warned).map((d) => d.option)).toEqual(['-Wunused-variable']);
    expect(diagnosticsOf(initialCheckState)).toBe(diagnosticsOf(run([created])));
  });

  it('ignores an event replayed after a reconnect, and anything after the end', () => {
    const done = run([created, event('build', 1, { t_s: 1, status: 'compiled', seconds: 1, diagnostics: [] }), event('failed', 2, { reason: 'boom', logs: [] })]);
    expect(run([event('build', 1, { t_s: 1, status: 'compiled', seconds: 9, diagnostics: [] })], done)).toBe(done);
    const later = run([event('checked', 3, { build: { status: 'compiled', diagnostics: [] }, checks: [] })], done);
    expect(later.phase).toBe('failed');
    expect(later.lastSeq).toBe(3);
  });

  it('says a cancelled build is cancelled, not failed', () => {
    const state = run([created, event('failed', 1, { reason: 'cancelled', logs: [], cancelled: true })]);
    expect(state.phase).toBe('cancelled');
    expect(state.failure).toBeNull();
  });

  it('keeps the last outcome on show when a new build is refused', () => {
    const failed = run([created, event('failed', 1, { reason: 'boom', logs: [], diagnostics: [missingSemicolon] })]);
    const refused = run([{ type: 'submit' }, { type: 'refused', refusal: { message: 'too many', tooMany: true, retryAfterS: 10 } }], failed);
    expect(refused.phase).toBe('failed');
    expect(refused.sending).toBe(false);
    expect(refused.refusal).toEqual({ message: 'too many', tooMany: true, retryAfterS: 10 });
    expect(diagnosticsOf(refused)).toHaveLength(1);
    // The next attempt clears the refusal.
    expect(run([{ type: 'submit' }], refused).refusal).toBeNull();
  });

  it('replays a finished run attached by id, and settles from its record when the stream is gone', () => {
    const attached = run([{ type: 'attach', variantId: 'v1', run: aRun({ id: 'r1', status: 'done' }) }]);
    expect(attached.phase).toBe('building'); // until its events replay
    const replayed = run([event('checked', 5, { build: { status: 'cached', diagnostics: [] }, checks: [echoPassed] })], attached);
    expect(replayed.phase).toBe('checked');

    const resolved = run([{ type: 'resolved', run: aRun({ id: 'r1', status: 'failed', error: 'runner lost' }) }], attached);
    expect(resolved.failure?.reason).toBe('runner lost');
    const other = run([{ type: 'resolved', run: aRun({ id: 'elsewhere', status: 'failed' }) }], attached);
    expect(other).toBe(attached);
  });

  it('follows an exercise’s run past its checks: warm-up, the measured intervals, then measured', () => {
    const progress = (seq: number, phase: string, t_s: number, qps: number, errors: number) =>
      event('progress', seq, { t_s, phase, qps, requests: Math.round(qps), errors, latency_us: latency });
    let state = run([
      created,
      event('build', 1, { t_s: 1, status: 'compiled', seconds: 1, diagnostics: [] }),
      event('check', 2, echoPassed),
      event('check', 3, httpPassed),
      progress(4, 'warmup', 1, 900, 4),
    ]);
    expect(state.phase).toBe('measuring');
    expect(isBuilding(state)).toBe(true);
    expect(checkStateLabel(state, t)).toBe('every check passed; warming up at 1.0 s: 900 requests/s…');

    state = run([progress(5, 'measure', 2, 1000, 0), progress(6, 'measure', 3, 1200.5, 2), event('server_stats', 7, { t_s: 3, cpu_percent: 50, memory_bytes: 1 })], state);
    expect(checkStateLabel(state, t)).toBe('every check passed; measuring at 3.0 s: 1,201 requests/s, 2 errors so far…');
    expect(state.measure?.points).toEqual([{ t_s: 2, qps: 1000 }, { t_s: 3, qps: 1200.5 }]); // the warm-up's left out

    state = run([event('done', 8, doneData)], state);
    expect(state.phase).toBe('measured');
    expect(isBuilding(state)).toBe(false);
    expect(state.checks).toHaveLength(2);
    expect(checkStateLabel(state, t)).toBe('measured: every check passed, then measured: 51,235 requests/s over 5 s, 0 errors');
  });

  it('settles an exercise’s run that ended while the stream was gone as measured', () => {
    const measuring = run([created, event('progress', 1, { t_s: 2, phase: 'measure', qps: 10, requests: 10, errors: 0, latency_us: latency })]);
    const resolved = run([{ type: 'resolved', run: aRun({ id: 'r1', status: 'done' }) }], measuring);
    expect(resolved.phase).toBe('measured');
    expect(resolved.measure?.summary).toEqual({ qps: 51234.5, errors: 0, duration_s: 5 });
    const checkOnly = aRun({ id: 'r1', status: 'done', request: { ...aRun().request, check_only: true }, result: null });
    expect(run([{ type: 'resolved', run: checkOnly }], run([created])).phase).toBe('checked');
  });

  it('says where a held build waits', () => {
    const held = run([created, event('queued', 1, { position: null, held: true })]);
    expect(checkStateLabel(held, t)).toMatch(/paused by the instructor/);
  });
});

describe('the status’s words', () => {
  it('agrees in number in English: one check, one error', () => {
    expect(describeCheck({ protocol: 'echo', ok: true, passed: ['echo-one'], failed: null }, t)).toBe('echo: 1 check passed');
    expect(describeCheck({ ...echoPassed, protocol: 'echo', ok: false, failed: { check: 'echo-big', message: 'short' } }, t)).toBe('echo: failed echo-big (2 checks passed)');
    const measure = { phase: 'measure' as const, t_s: 2, qps: 10, errors: 1, points: [], summary: null };
    expect(describeMeasure(measure, t)).toBe('measuring at 2.0 s: 10 requests/s, 1 error so far');
    expect(describeMeasure({ ...measure, errors: 1234 }, t)).toBe('measuring at 2.0 s: 10 requests/s, 1,234 errors so far');
  });

  it('reads in Chinese, the run’s own words kept', async () => {
    await i18next.loadLanguages('zh');
    const zh = i18next.getFixedT('zh', 'edit');
    expect(checkStateLabel(run([created]), zh)).toBe('等待中：排在第 2 位，约需 20 s');
    const checking = run([created, event('build', 1, { t_s: 1, status: 'compiled', seconds: 1.234, diagnostics: [] }), event('check', 2, echoPassed)]);
    expect(checkStateLabel(checking, zh)).toBe('编译用时 1.2 s；正在检查（echo：2 项检查通过）…');
    const failed = run([created, event('failed', 1, { reason: 'epoll.c did not compile', logs: [] })]);
    expect(checkStateLabel(failed, zh)).toBe('失败：epoll.c did not compile');
    const lost = run([{ type: 'resolved', run: aRun({ id: 'r1', status: 'failed', error: null }) }], run([created]));
    expect(checkStateLabel(lost, zh)).toBe('失败：检查失败（没有记录原因）');
    expect(describeNote({ kind: 'lost-connection' }, zh)).toBe('与构建事件流的连接已断开：请刷新页面以继续跟踪。');
    expect(describeNote({ kind: 'said', text: 'runner restarted' }, zh)).toBe('runner restarted');
  });

  it('keeps a note once, however often it comes', () => {
    const noted = run([created, { type: 'note', note: { kind: 'lost-connection' } }, { type: 'note', note: { kind: 'lost-connection' } }]);
    expect(noted.notes).toEqual([{ kind: 'lost-connection' }]);
  });
});
