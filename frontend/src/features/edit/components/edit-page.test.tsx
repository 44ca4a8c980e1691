import { EditorView } from '@codemirror/view';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';

import type { Server } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { findEditor, stubRangeLayout } from '@/testing/codemirror';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aVariant, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { readDraft, saveDraft } from '../lib/drafts';

import { EditPage } from './edit-page';

const ORIGINAL = ['#include "epoll.h"', '', 'int serve(int fd)', '{', '    return handle(fd);', '}', ''].join('\n');
const source = { path: 'servers/c/epoll.c', language: 'c', start_line: 1, end_line: 6, text: ORIGINAL };
const rust: Server = { ...servers[0]!, id: 'rust-tokio', language: 'rust', source: 'servers/rust/src/bin/rust-tokio.rs' };
const created = { id: 'v1', check: { id: 'r1', status: 'queued', position: 1, wait_s: 2, held: false } };
const missingSemicolon = {
  severity: 'error',
  message: "expected ';' before '}' token",
  line: 5,
  column: 22,
  end_line: 5,
  end_column: 22,
};
const linker = { severity: 'error', message: "undefined reference to `handle'" };

function routes(extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/servers': [...servers, rust],
    'GET /api/sources/servers/c/epoll.c': source,
    'GET /api/variants': [],
    'POST /api/variants': reply(202, created),
    ...extra,
  });
}

function renderEdit(serverId = 'c-epoll', from: string | null = null) {
  return renderWithProviders(
    <Routes>
      <Route path="/edit/:server" element={<EditPage serverId={serverId} from={from} />} />
      <Route path="/sweeps/:id" element={<p>the series’ page</p>} />
    </Routes>,
    { route: `/edit/${serverId}` },
  );
}

function editor(name = 'Edit servers/c/epoll.c'): Promise<EditorView> {
  return findEditor(name);
}

function type(view: EditorView, from: number, to: number, insert: string) {
  act(() => {
    view.dispatch({ changes: { from, to, insert } });
  });
}

stubRangeLayout();

describe('EditPage', () => {
  it('opens the original in an editor with an accessible name', async () => {
    routes();
    renderEdit();
    const view = await editor();
    expect(view.state.doc.toString()).toBe(ORIGINAL);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Edit c-epoll');
    expect(screen.getByTestId('draft-status')).toHaveTextContent('the original, unchanged');
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
  });

  it('keeps what is typed as a draft, and opens it again', async () => {
    routes();
    const first = renderEdit();
    const view = await editor();
    type(view, 0, 0, '// mine\n');
    await waitFor(() => { expect(screen.getByTestId('draft-status')).toHaveTextContent('draft saved in this browser'); });
    expect(readDraft('c-epoll')?.text).toBe(`// mine\n${ORIGINAL}`);
    first.unmount();

    renderEdit();
    expect((await editor()).state.doc.toString()).toBe(`// mine\n${ORIGINAL}`);
  });

  it('goes back to the original on Reset, once confirmed', async () => {
    saveDraft('c-epoll', 'broken', null);
    routes();
    renderEdit();
    const view = await editor();
    expect(view.state.doc.toString()).toBe('broken');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await userEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(view.state.doc.toString()).toBe('broken');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(view.state.doc.toString()).toBe(ORIGINAL);
    await waitFor(() => { expect(readDraft('c-epoll')).toBeNull(); });
  });

  it('shows the changes against the original, and goes back to editing', async () => {
    routes();
    renderEdit();
    const view = await editor();
    type(view, view.state.doc.line(5).from, view.state.doc.line(5).to, '    return 0;');
    await userEvent.click(screen.getByRole('button', { name: 'Show changes' }));
    expect(await screen.findByTestId('diff-view')).toHaveAttribute('data-layout', 'unified');
    await userEvent.click(screen.getByRole('radio', { name: 'Side by side' }));
    const split = screen.getByTestId('diff-view');
    expect(split).toHaveAttribute('data-layout', 'split');
    expect(within(split).getByRole('textbox', { name: 'servers/c/epoll.c, the original' })).toBeInTheDocument();
    expect(within(split).getByRole('textbox', { name: 'servers/c/epoll.c, your edit' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to editing' }));
    expect(screen.queryByTestId('diff-view')).toBeNull();
  });

  it('builds, and puts the compiler’s errors on their line and in a list that moves the cursor there', async () => {
    const { calls } = routes();
    renderEdit();
    const view = await editor();
    const line5 = view.state.doc.line(5);
    type(view, line5.from, line5.to, '    return handle(fd)'); // the ";" deleted
    await userEvent.click(screen.getByRole('button', { name: 'Build & check' }));
    await waitFor(() => { expect(calls.some((c) => c.method === 'POST')).toBe(true); });
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ server: 'c-epoll', source: view.state.doc.toString() });

    const events = FakeEventSource.latest();
    expect(events.url).toBe('/api/runs/r1/events');
    events.open();
    events.emit('started', { server: 'c-epoll' }, 1);
    await waitFor(() => { expect(screen.getByTestId('check-state')).toHaveTextContent('building…'); });
    events.emit('failed', { reason: "epoll.c did not compile: line 5: expected ';'", logs: [], diagnostics: [missingSemicolon, linker] }, 2);
    await waitFor(() => { expect(screen.getByTestId('check-state')).toHaveTextContent("failed: epoll.c did not compile: line 5: expected ';'"); });
    expect(events.closed).toBe(true);

    // On the line, as a lint range at the column…
    const marked = await waitFor(() => {
      const range = document.querySelector('.cm-lintRange-error');
      if (!range) throw new Error('no lint range yet');
      return range;
    });
    expect(marked.closest('.cm-line')?.textContent).toBe('    return handle(fd)');
    // …and in the list: the linker's message too, but only the edited file's moves the cursor.
    const items = screen.getAllByTestId('diagnostic');
    expect(items.map((i) => i.dataset.line ?? null)).toEqual(['5', null]);
    expect(within(items[1]!).queryByRole('button')).toBeNull();
    expect(items[1]).toHaveTextContent('undefined reference');
    await userEvent.click(within(items[0]!).getByRole('button'));
    await waitFor(() => { expect(view.state.selection.main.head).toBe(view.state.doc.line(5).from + 21); });
    expect(screen.getByTestId('variant-link')).toHaveTextContent('this saved edit');
  });

  it('says a 429 beside the button and keeps the file', async () => {
    routes();
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init?: RequestInit) => {
        if (init?.method === 'POST') {
          const refusal = problem('too-many-builds', { building: 3, most: 3 });
          return Promise.resolve(
            new Response(JSON.stringify(refusal), { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '10' } }),
          );
        }
        const body = input.endsWith('/api/servers') ? servers : input.endsWith('/api/variants') ? [] : source;
        return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }));
      }),
    );
    renderEdit();
    const view = await editor();
    type(view, 0, 0, '// mine\n');
    await userEvent.click(screen.getByRole('button', { name: 'Build & check' }));
    expect(await screen.findByTestId('build-refused')).toHaveTextContent(
      'You already have 3 builds waiting or under way (at most 3); wait for one to finish. Try again in 10 s.',
    );
    expect(view.state.doc.toString()).toBe(`// mine\n${ORIGINAL}`);
    expect(screen.getByRole('button', { name: 'Build & check' })).toBeEnabled();
  });

  it('once checked, benchmarks the edit against the original in rounds', async () => {
    const { calls } = routes({ 'POST /api/sweeps': reply(202, { id: 's1', points: 6, skipped: 0 }) });
    renderEdit();
    await editor();
    await userEvent.click(screen.getByRole('button', { name: 'Build & check' }));
    await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
    const events = FakeEventSource.latest();
    const echo = { protocol: 'echo', ok: true, passed: ['echo-one'], failed: null };
    events.emit('build', { t_s: 1, status: 'compiled', seconds: 1.2, diagnostics: [] }, 1);
    events.emit('check', { t_s: 2, ...echo }, 2);
    events.emit('checked', { build: { status: 'compiled', seconds: 1.2, diagnostics: [] }, checks: [echo] }, 3);
    expect(await screen.findByTestId('check-passed')).toBeInTheDocument();
    expect(screen.getByTestId('check-state')).toHaveTextContent('checked: compiled in 1.2 s, every check passed');

    const form = screen.getByTestId('benchmark-form');
    const rounds = within(form).getByLabelText('Rounds, at most');
    expect(rounds).toHaveValue(8);
    await userEvent.clear(rounds);
    await userEvent.type(rounds, '2');
    expect(within(form).getByText('Rounds: 3 to 10.')).toBeInTheDocument(); // too few for a verdict
    await userEvent.clear(rounds);
    await userEvent.type(rounds, '4');
    await userEvent.clear(within(form).getByLabelText(/Connections/));
    await userEvent.type(within(form).getByLabelText(/Connections/), '20');
    await userEvent.click(within(form).getByRole('button', { name: 'Benchmark against the original' }));
    expect(await screen.findByText('the series’ page')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/sweeps')?.body).toEqual({
      servers: ['c-epoll', 'variant:v1'],
      vary: 'round',
      values: [1, 2, 3, 4],
      base: { protocol: 'echo', connections: 20, duration_s: 5, warmup_s: 1, payload_bytes: 64 },
      within: 0.05,
    });
  });

  it('refuses a Rust server and an unknown one with a page that says why', async () => {
    routes();
    const rustPage = renderEdit('rust-tokio');
    expect(await screen.findByRole('heading', { name: 'rust-tokio cannot be edited here' })).toBeInTheDocument();
    rustPage.unmount();
    renderEdit('c-nope');
    expect(await screen.findByRole('heading', { name: 'No server c-nope' })).toBeInTheDocument();
  });

  it('starts from a saved edit, setting an earlier draft aside until the learner types', async () => {
    saveDraft('c-epoll', 'my old draft', null);
    const variant = aVariant({ id: 'v9', source: 'the saved edit', check_run_id: 'r9' });
    routes({ 'GET /api/variants/v9': variant });
    renderEdit('c-epoll', 'v9');
    const view = await editor();
    expect(view.state.doc.toString()).toBe('the saved edit');
    expect(screen.getByTestId('draft-set-aside')).toHaveTextContent('your earlier draft of c-epoll');
    await userEvent.click(screen.getByRole('button', { name: 'Restore that draft' }));
    expect(view.state.doc.toString()).toBe('my old draft');
  });

  it('reads in Chinese, and follows a switch of language while open', async () => {
    routes();
    renderEdit();
    const view = await editor();
    await act(async () => { await i18next.changeLanguage('zh'); });
    expect(await screen.findByRole('button', { name: '构建并检查' })).toBeEnabled();
    // The editor keeps its text and takes its new name and CodeMirror's words (its search panel's).
    const content = screen.getByRole('textbox', { name: '修改 servers/c/epoll.c' });
    expect(EditorView.findFromDOM(content)).toBe(view);
    expect(view.state.phrase('Find')).toBe('查找');
    expect(screen.getByTestId('draft-status')).toHaveTextContent('原始版本，未改动');
    expect(screen.getByTestId('check-state')).toHaveTextContent('尚未构建');

    // A 429 in Chinese: the API's refusal worded from its code, then when to try again.
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(new Response(JSON.stringify(problem('too-many-builds', { building: 3, most: 3 })), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '10' },
        })),
      ),
    );
    type(view, 0, 0, '// mine\n');
    await userEvent.click(screen.getByRole('button', { name: '构建并检查' }));
    expect(await screen.findByTestId('build-refused')).toHaveTextContent('你已有 3 个构建在排队或进行中（最多 3 个）；请等其中一个完成。 请在 10 s 后重试。');
  });

  it('says a failed build’s diagnostics in Chinese, gcc’s own words kept', async () => {
    await act(async () => { await i18next.changeLanguage('zh'); });
    routes();
    renderEdit();
    await editor('修改 servers/c/epoll.c');
    await userEvent.click(screen.getByRole('button', { name: '构建并检查' }));
    await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
    FakeEventSource.latest().emit('failed', { reason: 'epoll.c did not compile', logs: [], diagnostics: [missingSemicolon, linker] }, 1);
    expect(await screen.findByRole('heading', { name: '编译器提示（2 个错误）' })).toBeInTheDocument();
    expect(screen.getByTestId('check-state')).toHaveTextContent('失败：epoll.c did not compile');
    expect(screen.getAllByTestId('diagnostic')[0]).toHaveTextContent("错误第 5 行第 22 列expected ';' before '}' token");
  });
});
