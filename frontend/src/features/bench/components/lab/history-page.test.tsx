import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';
import { findChart } from '@/testing/charts';
import { aRun, doneData, lessons, servers } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { HistoryPage } from './history-page';

const runEntry = {
  kind: 'run',
  id: 'r1',
  created_at: '2026-11-25T10:01:00Z',
  servers: ['c-epoll'],
  status: 'done',
  request: { connections: 100 },
  knobs: {},
  qps: 51234.5,
  p99_us: 900,
};
const sweepEntry = {
  kind: 'sweep',
  id: 's1',
  created_at: '2026-11-25T10:00:00Z',
  servers: ['c-epoll', 'c-poll'],
  status: 'done',
  lesson: '01-c10k-problem',
  request: {},
  knobs: {},
  vary: 'connections',
  values: [10],
  points: 2,
  points_ended: 2,
};

function api() {
  return mockFetch({
    'GET /api/servers': servers,
    'GET /api/lessons': lessons,
    'GET /api/history': [runEntry, sweepEntry],
    'GET /api/history?server=c-poll': [sweepEntry],
    'GET /api/runs/r1': aRun({ created_at: runEntry.created_at, result: doneData }),
    'GET /api/sweeps/s1': {
      id: 's1',
      created_at: sweepEntry.created_at,
      request: { servers: ['c-epoll', 'c-poll'], vary: 'connections', values: [10], base: {} },
      finished: true,
      points: [
        { server: 'c-epoll', value: 10, run_id: 'a', status: 'done', reason: null, valid: true, qps: 900, p50_us: 5, p99_us: 9 },
        { server: 'c-poll', value: 10, run_id: 'b', status: 'done', reason: null, valid: true, qps: 800, p50_us: 6, p99_us: 12 },
      ],
      memory_per_connection: {},
    },
  });
}

describe('HistoryPage', () => {
  it('lists runs and sweeps with their permalinks and a way back into the lab', async () => {
    api();
    renderWithProviders(<HistoryPage />, { route: '/history' });
    const rows = await screen.findAllByTestId('history-entry');
    expect(rows.map((r) => r.dataset.id)).toEqual(['r1', 's1']);
    expect(within(rows[0]!).getByRole('link', { name: 'c-epoll, 100 connections' })).toHaveAttribute('href', '/runs/r1');
    expect(within(rows[1]!).getByRole('link', { name: 'c-epoll vs c-poll, 10 connections' })).toHaveAttribute('href', '/sweeps/s1');
    expect(within(rows[1]!).getByRole('link', { name: 'Open in lab' })).toHaveAttribute('href', '/lab?servers=c-epoll%2Cc-poll&connections=10');
    expect(within(rows[0]!).getByText('51,235')).toBeInTheDocument();
  });

  it('filters by server through the API', async () => {
    const { calls } = api();
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findAllByTestId('history-entry');
    await userEvent.selectOptions(screen.getByLabelText('Server'), 'c-poll');
    await waitFor(() => {
      expect(screen.getAllByTestId('history-entry').map((r) => r.dataset.id)).toEqual(['s1']);
    });
    expect(calls.some((c) => c.url === '/api/history?server=c-poll')).toBe(true);
  });

  it('compares the picked results on one chart and one table', async () => {
    api();
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Compare c-epoll, 100 connections' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Compare c-epoll vs c-poll, 10 connections' }));
    await userEvent.click(screen.getByRole('button', { name: 'Compare 2 selected' }));
    const table = await screen.findByTestId('compare-table');
    const labels = within(table).getAllByRole('rowheader').map((h) => h.textContent.split(' · ')[0]);
    expect(labels).toEqual(['c-epoll', 'c-epoll @ 10 connections', 'c-poll @ 10 connections']);
    expect(await findChart('compare-qps')).toHaveAttribute('data-points', '3');
  });

  it('names edits, answers and lessons in words, and reopens only what can run', async () => {
    const variant = '15a63321aaaabbbbccccddddeeeeffff';
    const owner = { mine: true, name: null, instructor: false };
    const edit = { variant, server: 'c-epoll', saved_at: '2026-11-25T09:43:00Z', exercise: null, check: { status: 'done', failed: null, reason: null }, owner };
    const benchmark = {
      ...sweepEntry,
      id: 's2',
      servers: ['c-epoll', `variant:${variant}`],
      request: { connections: 20 },
      vary: 'round',
      values: [1, 2, 3],
      edits: [{ ...edit, entry: `variant:${variant}` }],
    };
    const answer = {
      ...runEntry,
      id: 'r2',
      status: 'failed',
      request: { connections: 20, variant: 'a'.repeat(32) },
      edits: [{ ...edit, variant: 'a'.repeat(32), entry: 'c-epoll', exercise: 'et-drain', check: { status: 'failed', failed: 'build', reason: 'no' } }],
      verdict: { status: 'failed', reasons: ['no'], failed: ['build'], measured: [] },
    };
    mockFetch({
      'GET /api/servers': servers,
      'GET /api/lessons': lessons,
      'GET /api/exercises?lang=en': [{ slug: 'et-drain', title: 'Edge-triggered epoll', lesson: '05-epoll', server: 'c-epoll', summary: 's' }],
      'GET /api/history': [benchmark, answer],
    });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByText(/exercise: Edge-triggered epoll/);
    const [bench, checked] = screen.getAllByTestId('history-entry');
    // The edit by its server and save time; the lesson by its title, not its slug.
    expect(within(bench!).getByRole('link', { name: /^c-epoll vs your edit of c-epoll \(saved .*\), 20 connections$/ })).toHaveAttribute('href', '/sweeps/s2');
    expect(bench).toHaveTextContent('from The C10K problem');
    expect(within(bench!).getByRole('link', { name: 'Open in lab' })).toHaveAttribute('href', `/lab?servers=c-epoll%2Cvariant%3A${variant}&connections=20`);
    // The answer by its exercise and verdict; it did not compile, so it opens at the edit.
    expect(within(checked!).getByRole('link', { name: 'exercise: Edge-triggered epoll — failed: it did not compile' })).toBeInTheDocument();
    expect(within(checked!).getByTestId('history-status')).toHaveTextContent('failed');
    expect(within(checked!).queryByRole('link', { name: 'Open in lab' })).toBeNull();
    const open = within(checked!).getByRole('link', { name: 'Open the edit: it did not compile, so the lab could not run it' });
    expect(open).toHaveAttribute('href', `/variants/${'a'.repeat(32)}`);

    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(within(checked!).getByTestId('history-status')).toHaveTextContent('未通过');
    expect(within(bench!).getByRole('link', { name: /^c-epoll 对比 你修改的 c-epoll（保存于 .*），20 个连接$/ })).toBeInTheDocument();
  });

  it('says so when there is nothing yet', async () => {
    mockFetch({ 'GET /api/servers': servers, 'GET /api/lessons': lessons, 'GET /api/history': [] });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('Nothing here yet');
  });

  it('lists the history in Chinese once the language is switched, a plural in Chinese too', async () => {
    api();
    renderWithProviders(<HistoryPage />, { route: '/history' });
    const rows = await screen.findAllByTestId('history-entry');
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(screen.getByRole('heading', { level: 1, name: '我的历史记录' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('link', { name: 'c-epoll，100 个连接' })).toHaveAttribute('href', '/runs/r1');
    expect(within(rows[1]!).getByRole('link', { name: 'c-epoll 对比 c-poll，10 个连接' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('已完成（2 个中已结束 2 个）');
    expect(within(rows[0]!).getByRole('link', { name: '在实验室中打开' })).toBeInTheDocument();
    // Dates follow the language too: "11月25日 10:01" in the reader's time zone.
    expect(rows[0]).toHaveTextContent(/11月2[45]日/);
  });
});
