import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { aQueuedRun } from '@/testing/classroom-fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { QueueTable } from './queue-table';

const titles = {
  lessons: new Map([['01-c10k-problem', 'The C10K problem']]),
  experiments: new Map([['01-c10k-problem/a1b2c3d4e5f6', 'epoll at 100 connections']]),
};

const queue = {
  paused: true,
  runs: [
    aQueuedRun({ id: 'r-run', status: 'running', position: null, wait_s: null }),
    aQueuedRun({ id: 'r-wait', owner_name: 'Linus', server: 'c-poll', position: 1, wait_s: 12 }),
    aQueuedRun({ id: 'r-held', position: null, wait_s: null, held: true, lesson: null, experiment: null }),
    aQueuedRun({ id: 'r-done', status: 'done', position: null, wait_s: null, qps: 51234 }),
  ],
};

describe('QueueTable', () => {
  it('shows whose each run is, its server, state, experiment and QPS, with Cancel while it can be', async () => {
    mockFetch({ 'GET /api/classes/c-1/queue': queue });
    renderWithProviders(<QueueTable classId="c-1" live titles={titles} />);
    const rows = await screen.findAllByTestId('queue-row');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['Ada', 'c-epoll', 'running', 'The C10K problem · epoll at 100 connections', '—', 'Cancel'],
      ['Linus', 'c-poll', 'queued, #1, about 12 s', 'The C10K problem · epoll at 100 connections', '—', 'Cancel'],
      ['Ada', 'c-epoll', 'held (runs are paused)', '—', '—', 'Cancel'],
      ['Ada', 'c-epoll', 'done', 'The C10K problem · epoll at 100 connections', '51,234', ''],
    ]);
  });

  it('cancels a run with DELETE /api/runs/{id} and asks for the queue again', async () => {
    let runs = queue.runs;
    const { calls } = mockFetch({
      'GET /api/classes/c-1/queue': () => ({ body: { paused: false, runs } }),
      'DELETE /api/runs/r-wait': () => {
        runs = runs.map((r) => (r.id === 'r-wait' ? { ...r, status: 'cancelled' } : r));
        return { body: { id: 'r-wait', status: 'cancelled' } };
      },
    });
    renderWithProviders(<QueueTable classId="c-1" live titles={titles} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel Linus’s run on c-poll' }));
    await waitFor(() => {
      expect(screen.getAllByTestId('queue-state')[1]).toHaveTextContent('cancelled');
    });
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/runs/r-wait']);
  });

  it('says so when the class has run nothing', async () => {
    mockFetch({ 'GET /api/classes/c-1/queue': { paused: false, runs: [] } });
    renderWithProviders(<QueueTable classId="c-1" live titles={titles} />);
    expect(await screen.findByTestId('queue-empty')).toHaveTextContent('No runs yet.');
  });
});
