import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';
import { aPresentation, board } from '@/testing/classroom-fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { ClassBoard } from './class-board';

function datasets(chart: HTMLElement) {
  return JSON.parse(within(chart).getByTestId('chart-stub').getAttribute('data-datasets') ?? '[]') as { id: string; n: number }[];
}

async function experiment(title: string) {
  return screen.findByRole('region', { name: title });
}

describe('ClassBoard', () => {
  it('shows the experiments someone has run, and all of them when asked', async () => {
    mockFetch({ 'GET /api/classes/c-1/board': board });
    renderWithProviders(<ClassBoard classId="c-1" canSpotlight={false} />);
    expect(await screen.findAllByTestId('board-experiment')).toHaveLength(2);
    await userEvent.click(screen.getByLabelText('Show all experiments (1 without results yet)'));
    expect(screen.getAllByTestId('board-experiment')).toHaveLength(3);
  });

  it('draws a run’s results as named bars beside the reference, and the table with its spread', async () => {
    mockFetch({ 'GET /api/classes/c-1/board': board });
    renderWithProviders(<ClassBoard classId="c-1" canSpotlight={false} />);
    const run = await experiment('epoll at 100 connections');
    // The reference and both students: three bars in each chart.
    expect(within(run).getByTestId('board-qps-chart')).toHaveAttribute('data-points', '3');
    expect(within(run).getByTestId('board-p99_us-chart')).toHaveAttribute('data-points', '3');
    expect(datasets(within(run).getByTestId('board-qps-chart'))).toEqual([{ id: 'results', n: 3 }]);
    const rows = within(run).getAllByTestId('board-row');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['Ada', 'c-epoll', '50,000', '120 µs', '900 µs', '4 % to 28 % fewer requests/s', '✓ valid'],
      ['Linus', 'c-epoll', '30,000', '120 µs', '2.00 ms', '—', '✗ invalid'],
    ]);
    expect(within(run).getByText(/^Against the reference: each student’s requests per second/)).toBeInTheDocument();
    expect(within(run).getByText(/· 2 results$/)).toBeInTheDocument();
    expect(within(run).getByTestId('board-reference-row')).toHaveTextContent('reference (recorded)');
    // Linus's invalid run is left out of the spread, and said to be; Cy has not run it yet.
    expect(within(run).getByTestId('board-spread-row')).toHaveTextContent('Spread (1 counted; 1 left out: invalid or disturbed)');
    expect(within(run).getByTestId('board-not-run')).toHaveTextContent('Not run yet: Cy');
    expect(within(run).getByTestId('board-spread-row')).toHaveTextContent('50,000 (50,000 – 50,000)');
    // Read-only: nobody spotlights from a student's board; each name opens that student's run.
    expect(within(run).queryByRole('button', { name: /Spotlight/ })).not.toBeInTheDocument();
    expect(within(run).getByRole('link', { name: 'Ada' })).toHaveAttribute('href', '/runs/r-ada');
    // Exports beside the table: each student's figures, named by lesson and block.
    expect(within(run).getByRole('group', { name: 'Export the results of epoll at 100 connections' })).toBeInTheDocument();
  });

  it('draws a series as one line per student and server, the reference’s beside them', async () => {
    mockFetch({ 'GET /api/classes/c-1/board': board });
    renderWithProviders(<ClassBoard classId="c-1" canSpotlight={false} />);
    const series = await experiment('poll against epoll');
    expect(datasets(within(series).getByTestId('board-qps-chart'))).toEqual([
      { id: 'reference:c-poll', n: 2 },
      { id: 'reference:c-epoll', n: 2 },
      { id: 'p-ada:c-poll', n: 2 },
      { id: 'p-ada:c-epoll', n: 2 },
    ]);
    // One of Ada's points is invalid: a gap, not a figure.
    expect(within(series).getByTestId('board-qps-chart')).toHaveAttribute('data-points', '7');
    expect(within(series).getByText(/· 1 result$/)).toBeInTheDocument();
    expect(within(series).getByTestId('board-row')).toHaveTextContent('3 / 4');
    expect(within(series).getByTestId('board-spread-table')).toHaveTextContent('37,000 (37,000 – 37,000)');
  });

  it('spotlights a student’s run or sweep for the whole class', async () => {
    const { calls } = mockFetch({
      'GET /api/classes/c-1/board': board,
      'PUT /api/classes/c-1/presentation': aPresentation({ spotlight: { id: 'p-ada', name: 'Ada' } }),
    });
    renderWithProviders(<ClassBoard classId="c-1" canSpotlight />);
    const run = await experiment('epoll at 100 connections');
    await userEvent.click(within(run).getByRole('button', { name: 'Spotlight Linus' }));
    const series = await experiment('poll against epoll');
    await userEvent.click(within(series).getByRole('button', { name: 'Spotlight Ada' }));
    await userEvent.click(within(series).getByRole('button', { name: 'Present this experiment' }));
    await waitFor(() => {
      expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(3);
    });
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { lesson: '01-c10k-problem', experiment: 'a1b2c3d4e5f6', title: 'epoll at 100 connections', run_id: 'r-linus' },
      { lesson: '02-blocking', experiment: 'ffeeddccbbaa', title: 'poll against epoll', sweep_id: 's-ada' },
      { lesson: '02-blocking', experiment: 'ffeeddccbbaa', title: 'poll against epoll' },
    ]);
  });

  it('speaks Chinese: headings, checks, the spread and the buttons; names, servers and figures as they are', async () => {
    mockFetch({ 'GET /api/classes/c-1/board': board });
    await act(() => i18next.changeLanguage('zh'));
    renderWithProviders(<ClassBoard classId="c-1" canSpotlight />);
    const run = await experiment('epoll at 100 connections');
    expect(within(run).getByText(/· 2 个结果$/)).toBeInTheDocument();
    expect(within(run).getByRole('columnheader', { name: '学生' })).toBeInTheDocument();
    const rows = within(run).getAllByTestId('board-row');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['Ada', 'c-epoll', '50,000', '120 µs', '900 µs', '每秒请求少 4 % 到 28 %', '✓ 有效', '聚焦'],
      ['Linus', 'c-epoll', '30,000', '120 µs', '2.00 ms', '—', '✗ 无效', '聚焦'],
    ]);
    expect(within(run).getByTestId('board-reference-row')).toHaveTextContent('参考结果（预先录制）');
    expect(within(run).getByTestId('board-spread-row')).toHaveTextContent('分布（计入 1 个；1 个未计入：无效或受到干扰）中位数（最小 – 最大）');
    expect(within(run).getByTestId('board-not-run')).toHaveTextContent('还没有运行（1 人）：Cy');
    expect(within(run).getByRole('button', { name: '聚焦 Linus' })).toBeInTheDocument();
    expect(within(run).getByRole('button', { name: '展示此实验' })).toBeInTheDocument();
    expect(within(run).getByRole('group', { name: '导出“epoll at 100 connections”的结果' })).toBeInTheDocument();
    expect(within(within(run).getByTestId('board-qps-chart')).getByTestId('chart-stub')).toHaveAttribute('aria-label', '吞吐量（QPS）：每位学生');
    expect(within(run).getAllByText('灰色：参考结果。空心：无效，或测量时受到干扰。')).toHaveLength(2);
    expect(screen.getByLabelText('显示全部实验（1 个尚无结果）')).not.toBeChecked();
  });

  it('says so before anyone has a result', async () => {
    mockFetch({ 'GET /api/classes/c-1/board': { experiments: [board.experiments[2]] } });
    renderWithProviders(<ClassBoard classId="c-1" canSpotlight />);
    expect(await screen.findByTestId('board-empty')).toHaveTextContent('No results yet');
  });
});
