import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { findChart } from '@/testing/charts';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aLesson, anExperiment, aPoint, aProvenance, aSweep, doneData, healthyHealth, progress, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { ExperimentBlock } from './experiment-block';

// A live run or series is drawn over the recorded reference, never instead of it.

const runBlock = `server: c-epoll
connections: 100
duration_s: 5
warmup_s: 1
`;

const seriesBlock = `servers: [c-poll, c-epoll]
vary: connections
values: [10, 1000]
duration_s: 3
`;

const recordedAt = '2026-11-22T08:00:00+00:00';

/** The lesson listing both blocks as the backend parsed them, and its recorded reference of one. */
function baselines(experiment: Record<string, unknown>) {
  return {
    'GET /api/lessons/01-c10k-problem': aLesson([
      anExperiment(runBlock.trim(), { key: 'aaaaaaaaaaaa', run: { server: 'c-epoll', connections: 100, duration_s: 5, warmup_s: 1 } }),
      anExperiment(seriesBlock.trim(), {
        key: 'bbbbbbbbbbbb',
        sweep: { servers: ['c-poll', 'c-epoll'], vary: 'connections', values: [10, 1000], base: { duration_s: 3 } },
      }),
    ]),
    'GET /api/lessons/01-c10k-problem/baselines': {
      lesson: '01-c10k-problem',
      experiments: [{ key: null, recorded_at: recordedAt, provenance: aProvenance(), ...experiment }],
    },
  };
}

function datasets(testId: string): { id: string; n: number }[] {
  const stub = within(screen.getByTestId(testId)).getByTestId('chart-stub');
  return JSON.parse(stub.getAttribute('data-datasets') ?? '[]') as { id: string; n: number }[];
}

async function clickRun(name = 'Run benchmark') {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => {
    expect(button).toBeEnabled();
  });
  await userEvent.click(button);
}

describe('the recorded reference under a live run', () => {
  it('keeps the reference on every chart and in its own column while the live run is drawn over it', async () => {
    mockFetch({
      'GET /api/health': healthyHealth,
      'GET /api/servers': servers,
      'POST /api/runs': reply(202, { id: 'r1', status: 'queued', position: 1, wait_s: 0 }),
      ...baselines({
        block: runBlock,
        key: 'aaaaaaaaaaaa',
        kind: 'run',
        result: {
          events: [
            { type: 'progress', data: progress(1, 'warmup') },
            { type: 'progress', data: progress(2, 'measure', 40_000) },
            { type: 'server_stats', data: { t_s: 2, cpu_percent: 90, memory_bytes: 2 ** 20 } },
            { type: 'done', data: { ...doneData, stable: false, unstable_reason: 'others used the CPU' } },
          ],
        },
      }),
    });
    renderWithProviders(<ExperimentBlock code={runBlock} lessonSlug="01-c10k-problem" />);
    expect(await screen.findByTestId('baseline-note')).toBeInTheDocument();
    // Alone, the reference is the run shown.
    await findChart('qps-chart');
    expect(datasets('qps-chart').map((d) => d.id)).toEqual(['warm-up', 'measure']);

    await clickRun();
    const es = FakeEventSource.latest();
    act(() => {
      es.open();
      es.emit('started', { server: 'c-epoll' }, 1);
      es.emit('progress', progress(1.5, 'warmup'), 2);
      es.emit('progress', progress(2.5, 'measure'), 3);
    });
    await waitFor(() => {
      expect(datasets('qps-chart')).toEqual([
        { id: 'warm-up', n: 1 },
        { id: 'measure', n: 1 },
        { id: 'reference:measure', n: 1 },
      ]);
    });
    expect(datasets('latency-live-chart').map((d) => d.id)).toEqual(['p50', 'p99', 'reference:p50', 'reference:p99']);
    expect(datasets('latency-chart').map((d) => d.id)).toEqual(['interval', 'run', 'reference:run']);
    expect(datasets('server-stats-chart').map((d) => d.id)).toEqual(['cpu', 'memory', 'reference:cpu', 'reference:memory']);
    // The reference run was unstable: its percentile points carry the mark, the caption says what it means.
    expect(screen.getByTestId('latency-chart')).toHaveTextContent('× an unstable point');

    // While the live run measures, the table has the reference's column only; then both.
    const table = screen.getByTestId('run-results');
    expect(within(table).getByRole('columnheader', { name: 'reference (recorded 2026-11-22)' })).toBeInTheDocument();
    act(() => {
      es.emit('done', doneData, 4);
    });
    await waitFor(() => {
      expect(within(screen.getByTestId('run-results')).getByRole('columnheader', { name: 'your run' })).toBeInTheDocument();
    });
    expect(screen.getByTestId('run-stability-reference')).toHaveTextContent('unstable: others used the CPU');
  });

  it('draws a live series over the recorded one, a row each in the table', async () => {
    const point = (server: string, value: number, qps: number) => aPoint({ server, value, qps, p50_us: 80, p99_us: 300 });
    mockFetch({
      'GET /api/health': healthyHealth,
      'GET /api/servers': servers,
      'POST /api/sweeps': reply(202, { id: 's1', points: 4, skipped: 0 }),
      ...baselines({
        block: seriesBlock,
        key: 'bbbbbbbbbbbb',
        kind: 'series',
        result: {
          table: aSweep({
            id: 'recorded',
            request: { servers: ['c-poll', 'c-epoll'], vary: 'connections', values: [10, 1000], base: { duration_s: 3 } },
            points: [point('c-poll', 10, 1000), point('c-poll', 1000, 500), point('c-epoll', 10, 1100), point('c-epoll', 1000, 1050)],
          }),
        },
      }),
    });
    renderWithProviders(<ExperimentBlock code={seriesBlock} lessonSlug="01-c10k-problem" />);
    expect(await screen.findByTestId('baseline-note')).toBeInTheDocument();
    await findChart('series-qps-chart');
    expect(datasets('series-qps-chart').map((d) => d.id)).toEqual(['c-poll', 'c-epoll']);

    await clickRun('Run 4 benchmarks');
    const es = FakeEventSource.latest();
    act(() => {
      es.open();
      es.emit('point', point('c-poll', 10, 990), 1);
    });
    await waitFor(() => {
      expect(datasets('series-qps-chart').map((d) => d.id)).toEqual([
        'c-poll',
        'c-epoll',
        'reference:c-poll',
        'reference:c-epoll',
      ]);
    });
    const rows = within(screen.getByTestId('series-table')).getAllByRole('row');
    // The heading, then the live point and the four recorded ones, each server and value together.
    expect(rows).toHaveLength(6);
    expect(rows[1]).toHaveTextContent('your run');
    expect(rows[2]).toHaveTextContent('reference (recorded 2026-11-22)');
  });
});
