import { screen } from '@testing-library/react';

import { aQueuedRun } from '@/testing/classroom-fixtures';
import { healthyHealth, noise31 } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { RunnersTable } from './runners-table';

const engine = { reachable: true, version: '20.10', error: null };

function aRunner(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    host: 'lab-1',
    server_cpus: '0',
    loadgen_cpus: '1',
    engine: '20.10',
    state: 'idle',
    run_id: null,
    ready: true,
    reason: null,
    heartbeat_age_s: 1.2,
    shares_cpus_with: [],
    noise: null,
    ...extra,
  };
}

describe('RunnersTable', () => {
  it('lists each runner host with its CPUs, whose run it is running, who shares its CPUs and its noise', async () => {
    mockFetch({
      'GET /api/health': {
        ...healthyHealth,
        docker: engine,
        images: {},
        ready: true,
        runners: [
          aRunner('lab-1-a', { state: 'running', run_id: 'r-run', shares_cpus_with: ['lab-1-b'] }),
          aRunner('lab-1-b', { state: 'running', run_id: 'r-other', shares_cpus_with: ['lab-1-a'] }),
          aRunner('lab-2', {
            host: 'lab-2',
            server_cpus: '2-3',
            loadgen_cpus: '4-5',
            noise: { ...noise31, sigma: 0.024, runs: 9, groups: 2, freedom: 7, quantile: 2.3646 },
          }),
          aRunner('lab-3', { host: 'lab-3', ready: false, reason: 'images not built: c10klab/loadgen:latest' }),
          aRunner('lab-4', { host: 'lab-4', state: 'lost', heartbeat_age_s: 41.7 }),
        ],
      },
      'GET /api/classes/c-1/queue': { paused: false, runs: [aQueuedRun({ id: 'r-run', status: 'running' })] },
    });
    renderWithProviders(<RunnersTable classId="c-1" live />);
    const rows = await screen.findAllByTestId('runner-row');
    await screen.findByText('running Ada’s c-epoll');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['lab-1-a', 'lab-1', '0 · 1', 'running Ada’s c-epoll', 'lab-1-b', 'not measured yet'],
      ['lab-1-b', 'lab-1', '0 · 1', 'running another class’s run', 'lab-1-a', 'not measured yet'],
      ['lab-2', 'lab-2', '2-3 · 4-5', 'idle', '—', '±2.4 % (9 runs)'],
      ['lab-3', 'lab-3', '0 · 1', 'not ready: images not built: c10klab/loadgen:latest', '—', 'not measured yet'],
      ['lab-4', 'lab-4', '0 · 1', 'lost: silent for 42 s', '—', 'not measured yet'],
    ]);
  });

  it('says so when no runner has started', async () => {
    mockFetch({
      'GET /api/health': { ...healthyHealth, docker: engine, images: {}, ready: false, runners: [] },
      'GET /api/classes/c-1/queue': { paused: false, runs: [] },
    });
    renderWithProviders(<RunnersTable classId="c-1" live />);
    expect(await screen.findByTestId('runners-none')).toHaveTextContent('queued runs wait for one');
  });
});
