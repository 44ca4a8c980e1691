import { EditorView } from '@codemirror/view';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';
import { findEditor, stubRangeLayout } from '@/testing/codemirror';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aVariant, doneData, latency, lessons } from '@/testing/fixtures';
import { mockFetch, reply, type MockRequest } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import type { Exercise, Verdict } from '../api/exercises';
import type { Variant } from '../api/variants';

import { readDraft, readExerciseDraft, readLastAnswer, saveExerciseDraft } from '../lib/drafts';

import { ExercisePage } from './exercise-page';

const STARTER = ['void handle_readable(struct conn *c)', '{', '    enum read_result r = loop_read(c);', '}', ''].join('\n');
const SOLUTION = STARTER.replace('    enum read_result r = loop_read(c);', '    enum read_result r;\n    do\n        r = loop_read(c);\n    while (r == READ_AGAIN);');

const exercise: Exercise = {
  slug: 'et-drain',
  language: 'en',
  title: 'Edge-triggered epoll: read until EAGAIN',
  lesson: '02-blocking',
  server: 'c-epoll',
  summary: 'Make it drain.',
  file: 'servers/c/epoll.c',
  statement: 'This `c-epoll` runs **edge-triggered**: see [the lesson](02-blocking.md).',
  hints: ['Read `epoll(7)`.', 'Loop on READ_AGAIN.', 'A do/while is enough.'],
  starter: STARTER,
  opens_at: 1,
  run: {
    protocol: 'echo',
    connections: 20,
    payload_bytes: 4096,
    warmup_s: 1,
    duration_s: 5,
    knobs: { trigger: 'et', buffer_bytes: 512 },
    idle_connections: 0,
    new_connection_per_request: false,
    profile: 'throughput',
    ramp_s: 0,
    rate: 0,
    repetitions: 1,
  },
  criteria: [
    { id: 'answers-all', kind: 'errors_at_most', value: 0, says: 'every request is answered' },
    { id: 'reads', kind: 'calls_per_request_at_most', value: 3, syscall: 'read', says: 'at most 3 read() calls per request' },
  ],
};

const created = { id: 'v9', check: { id: 'r9', status: 'queued', position: null, wait_s: null, held: false } };

function answer(id: string, verdict: Verdict | null, created_at = '2026-11-25T10:00:00Z'): Variant {
  return aVariant({ id, source: STARTER, created_at, check_run_id: `r-${id}`, exercise: 'et-drain', verdict });
}

const failedVerdict: Verdict = {
  status: 'failed',
  reasons: ['every request is answered'],
  failed: ['answers-all'],
  measured: [
    { id: 'answers-all', says: 'every request is answered', ok: false, value: 37, limit: 0 },
    { id: 'reads', says: 'at most 3 read() calls per request', ok: true, value: 1.0234, limit: 3 },
  ],
};
const passedVerdict: Verdict = {
  status: 'passed',
  reasons: [],
  failed: [],
  measured: [
    { id: 'answers-all', says: 'every request is answered', ok: true, value: 0, limit: 0 },
    { id: 'reads', says: 'at most 3 read() calls per request', ok: true, value: 2.5, limit: 3 },
  ],
};

function routes(extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/exercises/et-drain': exercise,
    'GET /api/exercises/et-drain/solution': { slug: 'et-drain', source: SOLUTION },
    'GET /api/lessons': lessons,
    'GET /api/variants': [],
    'POST /api/variants': reply(202, created),
    ...extra,
  });
}

function renderExercise() {
  return renderWithProviders(<ExercisePage slug="et-drain" />, { route: '/exercises/et-drain' });
}

function editor(name = 'Your answer: servers/c/epoll.c'): Promise<EditorView> {
  return findEditor(name);
}

function type(view: EditorView, from: number, to: number, insert: string) {
  act(() => {
    view.dispatch({ changes: { from, to, insert } });
  });
}

const progress = (phase: string, t_s: number, qps: number, errors = 0) => ({ t_s, phase, qps, requests: Math.round(qps), errors, latency_us: latency });

/** Check my answer, then the exercise's run to its end: built, checked, measured, done. The
 *  verdict is not asked for before the run ends. */
async function checkAndRun(calls: MockRequest[]) {
  await userEvent.click(screen.getByRole('button', { name: 'Check my answer' }));
  await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
  const events = FakeEventSource.latest();
  events.emit('build', { t_s: 1, status: 'compiled', seconds: 1.5, diagnostics: [] }, 1);
  events.emit('check', { t_s: 2, protocol: 'echo', ok: true, passed: ['echo-one'], failed: null }, 2);
  events.emit('progress', progress('warmup', 3, 800), 3);
  events.emit('progress', progress('measure', 4, 1000, 7), 4);
  await waitFor(() => { expect(screen.getByTestId('check-state')).toHaveTextContent('measuring at 4.0 s: 1,000 requests/s, 7 errors so far'); });
  expect(screen.getByTestId('measure-progress')).toHaveAttribute('data-points', '1');
  expect(screen.getByTestId('verdict-area')).toHaveTextContent('Judged when the run ends.');
  expect(calls.filter((c) => c.path === '/api/variants/v9')).toHaveLength(0);
  events.emit('done', doneData, 5);
  return events;
}

stubRangeLayout();

describe('ExercisePage', () => {
  it('shows the statement, how it is judged, the starter in the editor and the way back to its lesson', async () => {
    routes();
    const { container } = renderExercise();
    const view = await editor();
    expect(view.state.doc.toString()).toBe(STARTER);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Edge-triggered epoll: read until EAGAIN');
    expect(container.querySelector('.exercise-statement strong')).toHaveTextContent('edge-triggered');
    expect(screen.getByRole('link', { name: 'the lesson' })).toHaveAttribute('href', '/lessons/02-blocking');
    expect(screen.getByTestId('criteria')).toHaveTextContent('at most 3 read() calls per request');
    expect(screen.getByText(/20 connections sending 4 KiB echo requests/)).toHaveTextContent('trigger = et, buffer_bytes = 512');
    expect(await screen.findByRole('link', { name: '← Back to Lesson 2: One process per connection' })).toHaveAttribute('href', '/lessons/02-blocking');
    expect(screen.getByTestId('draft-status')).toHaveTextContent('the starter, unchanged');
    expect(screen.getByTestId('check-state')).toHaveTextContent('not checked yet');
    expect(screen.getByTestId('verdict-area')).toHaveTextContent('Not checked yet.');
    // Headings in order: one h1, then h2s, h3 only below an h2.
    const levels = [...container.querySelectorAll('h1, h2, h3')].map((h) => Number(h.tagName[1]));
    expect(levels[0]).toBe(1);
    levels.slice(1).forEach((level, i) => { expect(level - (levels[i] ?? 1)).toBeLessThanOrEqual(1); });
  });

  it('opens the editor at the function to change, not at the file’s header', async () => {
    const starter = ['/* epoll.c: one thread, epoll */', '#include <sys/epoll.h>', '', STARTER].join('\n');
    routes({ 'GET /api/exercises/et-drain': { ...exercise, starter, opens_at: 4 } });
    renderExercise();
    const view = await editor();
    expect(view.state.doc.lineAt(view.state.selection.main.head).number).toBe(4);
    expect(view.state.doc.line(4).text).toBe('void handle_readable(struct conn *c)');
  });

  it('reveals the hints one at a time, each saying which it is', async () => {
    routes();
    renderExercise();
    const hints = await screen.findByTestId('hints');
    expect(within(hints).queryAllByTestId('hint')).toHaveLength(0);
    expect(hints).toHaveTextContent('3 hints, one at a time');
    await userEvent.click(within(hints).getByRole('button', { name: 'Show hint 1 of 3' }));
    expect(within(hints).getAllByTestId('hint')).toHaveLength(1);
    expect(within(hints).getByTestId('hint')).toHaveTextContent('Hint 1 of 3Read epoll(7).');
    expect(within(hints).getByText('epoll(7)').tagName).toBe('CODE');
    await userEvent.click(within(hints).getByRole('button', { name: 'Show hint 2 of 3' }));
    await userEvent.click(within(hints).getByRole('button', { name: 'Show hint 3 of 3' }));
    expect(within(hints).getAllByTestId('hint').map((h) => h.textContent)).toEqual([
      'Hint 1 of 3Read epoll(7).',
      'Hint 2 of 3Loop on READ_AGAIN.',
      'Hint 3 of 3A do/while is enough.',
    ]);
    expect(within(hints).queryByRole('button')).toBeNull();
    expect(hints).toHaveTextContent('That was the last hint.');
  });

  it('checks an answer with its exercise, follows the measured run and shows a failed verdict with what was measured', async () => {
    let asked = 0;
    const { calls } = routes({
      'GET /api/variants/v9': () => {
        asked += 1;
        return { body: answer('v9', failedVerdict) };
      },
    });
    renderExercise();
    await editor();
    await checkAndRun(calls);

    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ server: 'c-epoll', source: STARTER, exercise: 'et-drain' });
    expect(readLastAnswer('et-drain')).toEqual({ variantId: 'v9', runId: 'r9' });

    const verdict = await screen.findByTestId('verdict');
    expect(asked).toBe(1);
    expect(verdict).toHaveAttribute('data-status', 'failed');
    expect(verdict).toHaveTextContent('Not yet: your answer did not pass.');
    expect(within(verdict).getByTestId('verdict-reasons')).toHaveTextContent('every request is answered');
    const rows = within(within(verdict).getByTestId('verdict-measured')).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['every request is answered', '37', '0', '✗ not met'],
      ['at most 3 read() calls per request', '1.02', '3', '✓ met'],
    ]);
    expect(screen.getByTestId('check-state')).toHaveTextContent('measured: every check passed, then measured: 51,235 requests/s over 5 s, 0 errors');
    expect(screen.getByTestId('verdict-area').closest('[aria-live]')).not.toBeNull();
  });

  it('asks again while the verdict is still pending, then shows it passed', async () => {
    const verdicts = [{ status: 'pending', reasons: [], failed: [], measured: [] } satisfies Verdict, passedVerdict];
    const { calls } = routes({ 'GET /api/variants/v9': () => ({ body: answer('v9', verdicts.length > 1 ? verdicts.shift()! : verdicts[0]!) }) });
    renderExercise();
    await editor();
    await checkAndRun(calls);
    expect(await screen.findByText('Being judged: the run is still under way.')).toBeInTheDocument();
    const verdict = await screen.findByText('Passed: your answer does what the exercise asks.', undefined, { timeout: 3000 });
    expect(verdict.closest('[data-testid="verdict"]')).toHaveAttribute('data-status', 'passed');
  });

  it('fetches a solution only once the learner confirms, and loads it into the editor', async () => {
    const { calls } = routes();
    renderExercise();
    const view = await editor();
    const solution = screen.getByTestId('solution');
    const asked = () => calls.filter((c) => c.path === '/api/exercises/et-drain/solution').length;

    await userEvent.click(within(solution).getByRole('button', { name: 'Show a solution' }));
    expect(within(solution).getByRole('group', { name: 'Confirm: show a solution' })).toHaveTextContent('See a solution? Try the hints first.');
    await userEvent.click(within(solution).getByRole('button', { name: 'Not yet' }));
    expect(asked()).toBe(0);
    expect(within(solution).queryByTestId('diff-view')).toBeNull();

    await userEvent.click(within(solution).getByRole('button', { name: 'Show a solution' }));
    await userEvent.click(within(solution).getByRole('button', { name: 'Yes, show it' }));
    expect(await within(solution).findByTestId('diff-view')).toHaveAttribute('aria-label', 'Changes to servers/c/epoll.c');
    expect(within(solution).getByRole('textbox', { name: 'Changes to servers/c/epoll.c: a solution against the starter' })).toBeInTheDocument();
    expect(asked()).toBe(1);

    await userEvent.click(within(solution).getByRole('button', { name: 'Load into the editor' }));
    expect(view.state.doc.toString()).toBe(SOLUTION);
    expect(within(solution).getByRole('status')).toHaveTextContent('Loaded into the editor');
    await waitFor(() => { expect(readExerciseDraft('et-drain')?.text).toBe(SOLUTION); });
  });

  it('keeps the answer as a draft of this exercise, apart from the server’s, and resets to the starter', async () => {
    routes();
    const first = renderExercise();
    const view = await editor();
    type(view, 0, 0, '/* mine */\n');
    await waitFor(() => { expect(screen.getByTestId('draft-status')).toHaveTextContent('draft saved in this browser'); });
    expect(readExerciseDraft('et-drain')?.text).toBe(`/* mine */\n${STARTER}`);
    expect(readDraft('c-epoll')).toBeNull();
    first.unmount();

    renderExercise();
    const again = await editor();
    expect(again.state.doc.toString()).toBe(`/* mine */\n${STARTER}`);
    await userEvent.click(screen.getByRole('button', { name: 'Show changes' }));
    expect(await screen.findByRole('textbox', { name: 'Changes to servers/c/epoll.c: your answer against the starter' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reset to starter' }));
    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(again.state.doc.toString()).toBe(STARTER);
    await waitFor(() => { expect(screen.getByTestId('draft-status')).toHaveTextContent('the starter, unchanged'); });
    expect(readExerciseDraft('et-drain')).toBeNull();
  });

  it('opens another exercise’s draft for that exercise only', async () => {
    saveExerciseDraft('select-value-result', 'other answer');
    routes();
    renderExercise();
    expect((await editor()).state.doc.toString()).toBe(STARTER);
  });

  it('lists the past answers to this exercise, each at its page with its verdict', async () => {
    const free = { ...answer('v0', null), exercise: null };
    const other = { ...answer('v7', passedVerdict), exercise: 'reap-every-child' };
    routes({ 'GET /api/variants': [answer('v2', failedVerdict, '2026-11-25T11:00:00Z'), other, answer('v1', passedVerdict), free] });
    renderExercise();
    const list = await screen.findByTestId('answer-list');
    await waitFor(() => { expect(within(list).getAllByRole('link')).toHaveLength(2); });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/variants/v2', '/variants/v1']);
    expect(links[0]).toHaveTextContent('failed');
    expect(links[1]).toHaveTextContent('passed');
  });

  it('says there is no such exercise, with the way to the list', async () => {
    routes({ 'GET /api/exercises/et-drain': reply(404, problem('no-exercise', { slug: 'et-drain' })) });
    renderExercise();
    expect(await screen.findByRole('heading', { level: 1, name: 'No exercise et-drain' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← All exercises' })).toHaveAttribute('href', '/exercises');
  });

  it('says a single hint as one', async () => {
    routes({ 'GET /api/exercises/et-drain': { ...exercise, hints: ['Read `epoll(7)`.'] } });
    renderExercise();
    const hints = await screen.findByTestId('hints');
    expect(hints).toHaveTextContent('One hint, for when you are stuck.');
    await userEvent.click(within(hints).getByRole('button', { name: 'Show hint 1 of 1' }));
    expect(within(hints).getByTestId('hint')).toHaveTextContent('Hint 1 of 1');
  });

  it('reads in Chinese: the page’s words, the exercise’s own as the API gives them', async () => {
    await act(async () => { await i18next.changeLanguage('zh'); });
    const { calls } = routes({ 'GET /api/variants/v9': () => ({ body: answer('v9', failedVerdict) }) });
    renderExercise();
    await editor('你的答案：servers/c/epoll.c');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Edge-triggered epoll: read until EAGAIN');
    expect(screen.getByText(/20 个连接发送 4 KiB 的 echo 请求/)).toHaveTextContent('参数为 trigger = et, buffer_bytes = 512');
    expect(screen.getByTestId('hints')).toHaveTextContent('共 3 条提示');
    expect(screen.getByTestId('draft-status')).toHaveTextContent('初始代码，未改动');
    expect(screen.getByTestId('verdict-area')).toHaveTextContent('尚未检查。');

    await userEvent.click(screen.getByRole('button', { name: '检查我的答案' }));
    await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
    const events = FakeEventSource.latest();
    events.emit('build', { t_s: 1, status: 'compiled', seconds: 1.5, diagnostics: [] }, 1);
    events.emit('progress', progress('measure', 4, 1000, 7), 2);
    await waitFor(() => { expect(screen.getByTestId('check-state')).toHaveTextContent('全部检查通过；测量中，第 4.0 s：每秒 1,000 次请求，目前 7 个错误…'); });
    events.emit('done', doneData, 3);
    const verdict = await screen.findByTestId('verdict');
    expect(verdict).toHaveTextContent('还没通过：你的答案未能通过。');
    const rows = within(within(verdict).getByTestId('verdict-measured')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('td:last-child')?.textContent)).toEqual(['✗ 未达到', '✓ 达到']);
    expect(calls.some((c) => c.method === 'POST')).toBe(true);
  });
});
