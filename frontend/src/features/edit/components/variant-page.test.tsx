import { act, screen, waitFor, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { stubRangeLayout } from '@/testing/codemirror';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aRun, aVariant, doneData, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { VariantPage } from './variant-page';

const ORIGINAL = 'int serve(int fd)\n{\n    return handle(fd);\n}\n';
const variant = aVariant({ source: 'int serve(int fd)\n{\n    return handle_fast(fd);\n}\n' });
const echo = { protocol: 'echo', ok: true, passed: ['echo-one'], failed: null };

stubRangeLayout();

function api(extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/variants/v1': variant,
    'GET /api/servers': servers,
    'GET /api/sources/servers/c/epoll.c': { path: 'servers/c/epoll.c', language: 'c', start_line: 1, end_line: 4, text: ORIGINAL },
    'GET /api/runs/r1': aRun({ id: 'r1', status: 'done' }),
    ...extra,
  });
}

describe('VariantPage', () => {
  it('shows a checked edit: its outcome, its changes, a copy to edit and the benchmark', async () => {
    api();
    renderWithProviders(<VariantPage variantId="v1" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Edited c-epoll');
    expect(screen.getByRole('link', { name: 'Edit a copy' })).toHaveAttribute('href', '/edit/c-epoll?from=v1');
    expect(await screen.findByTestId('diff-view')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Benchmark against the original' })).toBeDisabled();

    await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
    const events = FakeEventSource.latest();
    expect(events.url).toBe('/api/runs/r1/events');
    events.emit('build', { t_s: 1, status: 'cached', diagnostics: [] }, 1);
    events.emit('checked', { build: { status: 'cached', diagnostics: [] }, checks: [echo] }, 2);
    expect(await screen.findByTestId('benchmark-form')).toBeInTheDocument();
    expect(screen.getByTestId('check-state')).toHaveTextContent('checked: built before: using that build, every check passed');
    expect(screen.getByRole('button', { name: 'Benchmark against the original' })).toBeEnabled();
  });

  it('keeps the benchmark closed for an edit that did not build, and lists why', async () => {
    api({ 'GET /api/runs/r1': aRun({ id: 'r1', status: 'failed', result: null, error: 'did not compile' }) });
    renderWithProviders(<VariantPage variantId="v1" />);
    await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
    FakeEventSource.latest().emit(
      'failed',
      { reason: 'epoll.c did not compile', logs: [], diagnostics: [{ severity: 'error', message: "'handle_fast' undeclared", line: 3, column: 12 }] },
      1,
    );
    expect(await screen.findByTestId('diagnostic')).toHaveTextContent("line 3:12'handle_fast' undeclared");
    expect(screen.getByRole('button', { name: 'Benchmark against the original' })).toBeDisabled();
    expect(screen.getByText(/Only an edit that built and passed its checks/)).toBeInTheDocument();
  });

  it('shows the exercise an answer is for and its verdict, read again once its run ends', async () => {
    const measured = [{ id: 'answers-all', says: 'every request is answered', ok: true, value: 0, limit: 0 }];
    const answers = [
      { ...variant, exercise: 'et-drain', verdict: { status: 'pending' as const, reasons: [], failed: [], measured: [] } },
      { ...variant, exercise: 'et-drain', verdict: { status: 'passed' as const, reasons: [], failed: [], measured } },
    ];
    api({
      'GET /api/variants/v1': () => ({ body: answers.length > 1 ? answers.shift() : answers[0] }),
      'GET /api/exercises/et-drain': {
        slug: 'et-drain',
        title: 'Edge-triggered epoll: read until EAGAIN',
        lesson: '05-epoll',
        server: 'c-epoll',
        summary: 'Make it drain.',
        file: 'servers/c/epoll.c',
        statement: 'Drain it.',
        hints: ['Loop.'],
        starter: ORIGINAL,
        opens_at: 1,
        run: {},
        criteria: [{ id: 'answers-all', kind: 'errors_at_most', says: 'every request is answered' }],
      },
      'GET /api/runs/r1': aRun({ id: 'r1', status: 'running', result: null }),
    });
    renderWithProviders(<VariantPage variantId="v1" />);
    const section = await screen.findByTestId('variant-exercise');
    expect(section).toHaveTextContent('Being judged');
    expect(await within(section).findByRole('link', { name: 'Edge-triggered epoll: read until EAGAIN' })).toHaveAttribute('href', '/exercises/et-drain');

    await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
    const events = FakeEventSource.latest();
    events.emit('build', { t_s: 1, status: 'cached', diagnostics: [] }, 1);
    events.emit('done', doneData, 2);
    expect(await within(section).findByText('Passed: your answer does what the exercise asks.')).toBeInTheDocument();
    expect(within(section).getByTestId('verdict-measured')).toHaveTextContent('every request is answered');
    // An answer that passed its checks and was measured can be benchmarked.
    expect(await screen.findByTestId('benchmark-form')).toBeInTheDocument();
  });

  it('shows no exercise for an edit of the free editor', async () => {
    api();
    renderWithProviders(<VariantPage variantId="v1" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Edited c-epoll');
    expect(screen.queryByTestId('variant-exercise')).toBeNull();
  });

  it.each([
    [404, problem('no-variant', { variant_id: 'v1' }), 'No saved edit v1', 'There is no saved edit with this id here: check the link'],
    [
      403,
      problem('variant-not-yours'),
      'This saved edit is not yours to see',
      'This saved edit belongs to someone else: you can see only your own and your class’s.',
    ],
    [401, problem('not-signed-in'), 'Join the class to see this saved edit', 'Edits in a class open for its members only.'],
  ])('says what to do when it answers %i', async (status, refusal, heading, advice) => {
    api({ 'GET /api/variants/v1': reply(status, refusal) });
    renderWithProviders(<VariantPage variantId="v1" />);
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(screen.getByTestId('variant-problem')).toHaveAttribute('data-status', String(status));
    expect(screen.getByTestId('variant-problem')).toHaveTextContent(advice);
  });

  it('reads in Chinese, the date in Chinese too', async () => {
    await act(async () => { await i18next.changeLanguage('zh'); });
    api();
    renderWithProviders(<VariantPage variantId="v1" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('修改后的 c-epoll');
    expect(screen.getByRole('link', { name: '修改一份副本' })).toHaveAttribute('href', '/edit/c-epoll?from=v1');
    expect(screen.getByRole('button', { name: '与原始版本对比测试' })).toBeDisabled();
    expect(document.querySelector('time')).toHaveTextContent(/2026年11月25日/);
    await waitFor(() => { expect(FakeEventSource.instances).toHaveLength(1); });
    const events = FakeEventSource.latest();
    events.emit('build', { t_s: 1, status: 'cached', diagnostics: [] }, 1);
    events.emit('checked', { build: { status: 'cached', diagnostics: [] }, checks: [echo] }, 2);
    expect(await screen.findByTestId('benchmark-form')).toHaveTextContent('每一轮用相同的设置运行原版 c-epoll');
    expect(screen.getByTestId('check-state')).toHaveTextContent('检查完成：沿用之前的构建，全部检查通过');
    expect(screen.getByTestId('checks')).toHaveTextContent('✓ echo：1 项检查通过');
  });

  it('says what to do in Chinese when it is not the reader’s to see', async () => {
    await act(async () => { await i18next.changeLanguage('zh'); });
    api({ 'GET /api/variants/v1': reply(401, problem('not-signed-in')) });
    renderWithProviders(<VariantPage variantId="v1" />);
    expect(await screen.findByRole('heading', { name: '加入班级后才能查看这份修改' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '用班级代码加入' })).toHaveAttribute('href', '/join');
  });
});
