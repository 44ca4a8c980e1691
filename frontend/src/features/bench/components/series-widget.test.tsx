import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { SweepPoint } from '@/lib/api-schemas';
import { findChart } from '@/testing/charts';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aLesson, anExperiment, aPoint, aSweep, healthyHealth, progress, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { ExperimentBlock } from './experiment-block';

const block = `title: idle connections
servers: [c-poll, c-epoll]
vary: idle_connections
values: [0, 16000]
connections: 10
duration_s: 3
`;

const syscallsBlock = 'servers: [c-poll, c-epoll]\nconnections: 100\nprofile: syscalls\n';
const bothBlock = 'server: c-epoll\nservers: [c-poll]';

/** The lesson as GET /api/lessons/{slug} lists these blocks, parsed by the backend. */
const lesson = aLesson([
  anExperiment(block.trim(), {
    key: 'bbbbbbbbbbbb',
    title: 'idle connections',
    sweep: { servers: ['c-poll', 'c-epoll'], vary: 'idle_connections', values: [0, 16000], base: { connections: 10, duration_s: 3 } },
  }),
  anExperiment(syscallsBlock.trim(), {
    key: 'cccccccccccc',
    sweep: { servers: ['c-poll', 'c-epoll'], vary: 'connections', values: [100], base: { profile: 'syscalls' } },
  }),
  anExperiment(bothBlock, { key: 'dddddddddddd', error: 'The experiment block is invalid: has both `server` and `servers`: use one' }),
]);

function point(server: string, value: number, qps: number, extra: Partial<SweepPoint> = {}) {
  return aPoint({ server, value, run_id: `${server}-${value}`, qps, p50_us: 80, p99_us: 300, cpu_percent: 95, rss_bytes: 2 ** 20, idle_dropped: 0, ...extra });
}

function api(overrides: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/health': healthyHealth,
    'GET /api/servers': servers,
    'POST /api/sweeps': reply(202, { id: 's1', points: 4, skipped: 0 }),
    'GET /api/lessons/01-c10k-problem': lesson,
    'DELETE /api/sweeps/s1': aSweep({ finished: true }),
    ...overrides,
  });
}

function pending(server: string, value: number, status: 'queued' | 'running') {
  return { server, value, run_id: `${server}-${value}`, status, reason: null };
}

async function clickRun(name: string) {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => {
    expect(button).toBeEnabled();
  });
  await userEvent.click(button);
}

/** The series' own stream (the next point's run has one too). */
const sweepStream = () => {
  const found = [...FakeEventSource.instances].reverse().find((es) => es.url.startsWith('/api/sweeps/'));
  if (!found) throw new Error('no sweep stream');
  return found;
};
const runStream = (runId: string) => {
  const found = [...FakeEventSource.instances].reverse().find((es) => es.url === `/api/runs/${runId}/events`);
  if (!found) throw new Error(`no stream of run ${runId}`);
  return found;
};

const plotted = (testId: string) => screen.getByTestId(testId).getAttribute('data-points');

describe('SeriesWidget', () => {
  it('opens in the lab with its servers, values and settings', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    const link = await screen.findByRole('link', { name: 'Open in lab' });
    expect(link).toHaveAttribute('href', '/lab?servers=c-poll%2Cc-epoll&connections=10&duration_s=3&vary=idle_connections&values=0%2C16000');
  });

  it('shows the servers and the varied values', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    const params = await screen.findByTestId('experiment-params');
    expect(await within(params).findByText('poll() event loop (c-poll), epoll, level-triggered (c-epoll)')).toBeInTheDocument();
    expect(within(params).getByText('0, 16,000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run 4 benchmarks' })).toBeInTheDocument();
  });

  it('queues one sweep, then draws each point as it arrives and the table at the end', async () => {
    const { calls } = api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 4 benchmarks');
    await waitFor(() => {
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/sweeps')).toBe(true);
    });
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/sweeps');
    expect(post?.body).toEqual({
      servers: ['c-poll', 'c-epoll'],
      vary: 'idle_connections',
      values: [0, 16000],
      base: { connections: 10, duration_s: 3 },
      lesson: '01-c10k-problem',
      experiment: 'bbbbbbbbbbbb',
    });
    const es = FakeEventSource.latest();
    expect(es.url).toContain('/api/sweeps/s1/events');

    act(() => {
      es.emit('point', point('c-poll', 0, 120000), 1);
      es.emit('point', point('c-epoll', 0, 125000), 2);
    });
    await findChart('series-qps-chart');
    await waitFor(() => {
      expect(plotted('series-qps-chart')).toBe('2');
    });
    expect(screen.getByTestId('series-state')).toHaveTextContent('2 of 4 points done');

    const last = [
      point('c-poll', 0, 120000),
      point('c-epoll', 0, 125000),
      point('c-poll', 16000, 30000, { stable: false, unstable_reason: "other processes used 38% of the server's CPU 0" }),
      point('c-epoll', 16000, 0, { valid: false, qps: 0, reason: '9 requests got no reply in time' }),
    ];
    act(() => {
      es.emit('point', last[2], 3);
      es.emit('point', last[3], 4);
      es.emit('done', aSweep({ points: last, memory_per_connection: { 'c-poll': 2048, 'c-epoll': null } }), 5);
    });
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent('done');
    });
    expect(es.closed).toBe(true);
    // The invalid point is not drawn; the unstable one is, marked, and the table says why.
    expect(plotted('series-qps-chart')).toBe('3');
    const rows = within(screen.getByTestId('series-table')).getAllByRole('row');
    expect(rows).toHaveLength(5);
    expect(rows[3]).toHaveTextContent("unstable: other processes used 38% of the server's CPU 0");
    expect(within(rows[3]!).getByText(/unstable/)).toHaveClass('run-results__bad');
    expect(rows[4]).toHaveTextContent('invalid: 9 requests got no reply in time');
    expect(rows[1]).not.toHaveTextContent('spread'); // one run per point: no spread to show
    expect(screen.getByTestId('memory-per-connection')).toHaveTextContent('c-poll 2 KiB');
  });

  it('draws calls per request, then throughput, for a series that counts system calls', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={syscallsBlock} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 2 benchmarks');
    const es = FakeEventSource.latest();
    act(() => {
      es.emit('point', point('c-poll', 100, 13000, { calls_per_request: 2.02 }), 1);
      // Flagged unstable: its calls per request still show, in a column of their own.
      es.emit('point', point('c-epoll', 100, 14000, { calls_per_request: 0.04, stable: false, unstable_reason: 'other processes used 38% of CPU 0 while it was measured, and more words to clamp the note' }), 2);
    });
    await findChart('series-syscalls-chart');
    await waitFor(() => {
      expect(plotted('series-syscalls-chart')).toBe('2');
    });
    expect(screen.getAllByTestId('calls-per-request').map((c) => c.textContent)).toEqual(['2.02', '0.04']);
    const table = screen.getByTestId('series-table');
    expect(within(table).getByRole('columnheader', { name: 'system calls per request' })).toBeInTheDocument();
    // Counted by perf's tracepoints, not strace: the throughput is a speed figure too.
    expect(plotted('series-qps-chart')).toBe('2');
    expect(screen.queryByTestId('series-p99-chart')).not.toBeInTheDocument();
  });

  it('gives bytes per connection in bytes when under a KiB, and a repeated point its spread', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 4 benchmarks');
    const es = FakeEventSource.latest();
    act(() => {
      es.emit('done', aSweep({ points: [point('c-epoll', 0, 1), point('c-epoll', 16000, 1, { spread: 0.031 })],
        memory_per_connection: { 'c-poll': null, 'c-epoll': 112.1 } }), 1);
    });
    await waitFor(() => {
      expect(screen.getByTestId('memory-per-connection')).toHaveTextContent('c-epoll 112 B');
    });
    expect(within(screen.getByTestId('series-table')).getAllByRole('row')[2]).toHaveTextContent('1 spread 3.1 %');
    expect(await findChart('series-qps-chart')).not.toHaveTextContent('Whiskers');
  });

  it('says what the whiskers are when a point has an interval', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 4 benchmarks');
    const interval = { estimate: 125000, low: 110000, high: 140000, level: 0.95, count: 1, method: 'host_noise' as const };
    act(() => {
      FakeEventSource.latest().emit('point', point('c-epoll', 0, 125000, { qps_interval: interval }), 1);
    });
    await findChart('series-qps-chart');
    await waitFor(() => {
      expect(screen.getByTestId('series-qps-chart')).toHaveTextContent("Whiskers: the figure's 95 % interval");
    });
    expect(screen.getByTestId('series-p99-chart')).not.toHaveTextContent('Whiskers');
  });

  it('says how many idle connections a point refused, apart from the drops of their reconnects', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 4 benchmarks');
    const es = FakeEventSource.latest();
    act(() => {
      es.emit('done', aSweep({ points: [
        point('c-poll', 2000, 11000),
        point('c-epoll', 2000, 16000, { idle_dropped: 9930, idle_dropped_connections: 992 }),
        point('c-epoll', 16000, 15000, { idle_dropped: 3 }), // recorded before the distinct count
      ] }), 1);
    });
    const table = await screen.findByTestId('series-table');
    expect(table).toHaveTextContent('992 idle connections refused (9,930 drops, counting their reconnects dropped again)');
    expect(table).toHaveTextContent('3 idle connections dropped');
    expect(await findChart('series-qps-chart')).toHaveTextContent('An open ring on dashed segments');
  });

  it('shows the backend’s refusal of a block with both server and servers', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={bothBlock} lessonSlug="01-c10k-problem" />);
    expect(await screen.findByTestId('experiment-error')).toHaveTextContent('has both `server` and `servers`');
  });

  it('says how many points are done, running and queued while it runs, from the table', async () => {
    let table: unknown[] = [pending('c-poll', 0, 'running'), pending('c-epoll', 0, 'queued'), pending('c-poll', 16000, 'queued'), pending('c-epoll', 16000, 'queued')];
    const { calls } = api({
      'GET /api/sweeps/s1': () => ({ body: { ...aSweep({ finished: false }), points: table } }),
    });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 4 benchmarks');
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent('0 of 4 points done · 1 running · 3 queued');
    });

    // A point finishes: the table is asked for again at once.
    table = [point('c-poll', 0, 120000), pending('c-epoll', 0, 'running'), pending('c-poll', 16000, 'queued'), pending('c-epoll', 16000, 'queued')];
    act(() => {
      sweepStream().emit('point', table[0], 1);
    });
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent('1 of 4 points done · 1 running · 2 queued');
    });
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/sweeps/s1')).toHaveLength(2);
  });

  it('keeps the previous series on show when the next one is cancelled', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 4 benchmarks');
    const first = [point('c-poll', 0, 120000), point('c-epoll', 0, 125000), point('c-poll', 16000, 30000), point('c-epoll', 16000, 31000)];
    act(() => {
      sweepStream().emit('done', aSweep({ points: first }), 5);
    });
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent('done');
    });
    await clickRun('Run 4 benchmarks');
    act(() => {
      sweepStream().emit('point', point('c-poll', 0, 7), 1);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent('cancelled');
    });
    expect(screen.getByTestId('run-kept')).toHaveTextContent('your previous run is shown');
    await findChart('series-qps-chart');
    expect(plotted('series-qps-chart')).toBe('4');
  });

  it('follows the next point on its own run stream: its queue place and phase at once, its warm-up drawn', async () => {
    const table = [pending('c-poll', 0, 'queued'), pending('c-epoll', 0, 'queued'), pending('c-poll', 16000, 'queued'), pending('c-epoll', 16000, 'queued')];
    api({ 'GET /api/sweeps/s1': () => ({ body: { ...aSweep({ finished: false }), points: table } }) });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await clickRun('Run 4 benchmarks');
    await waitFor(() => {
      expect(runStream('c-poll-0')).toBeDefined();
    });
    act(() => {
      runStream('c-poll-0').emit('queued', { position: 2, wait_s: null }, 1);
    });
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent(
        '0 of 4 points done · 4 queued · now c-poll at 0 (idle connections): Waiting: number 2 in the queue',
      );
    });
    // It starts: the counts say so at once, though the table (asked every 5 s) still says queued.
    act(() => {
      runStream('c-poll-0').emit('started', { server: 'c-poll', server_cpus: '0', loadgen_cpus: '1' }, 2);
      runStream('c-poll-0').emit('progress', { ...progress(1, 'warmup'), qps: 900 }, 3);
      runStream('c-poll-0').emit('progress', { ...progress(2, 'warmup'), qps: 1100 }, 4);
    });
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent('0 of 4 points done · 1 running · 3 queued · now c-poll at 0 (idle connections): warming up');
    });
    // Its warm-up so far, a mark of its own on the throughput chart: no point has landed yet.
    await findChart('series-qps-chart');
    await waitFor(() => {
      expect(plotted('series-qps-chart')).toBe('1');
    });
    const qps = JSON.parse(within(screen.getByTestId('series-qps-chart')).getByTestId('chart-stub').getAttribute('data-datasets') ?? '[]') as { id: string }[];
    expect(qps.map((d) => d.id)).toContain('running');
    expect(screen.getByTestId('series-qps-chart')).toHaveAttribute('data-series', 'c-poll now (warm-up so far, not a result)');
  });

  it('tags the series with the lesson and block key, presents it and follows each new series', async () => {
    const { calls } = api();
    const presenter = { present: vi.fn(() => Promise.resolve()), stop: vi.fn(() => Promise.resolve()), presenting: false };
    const { rerender } = renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" presenter={presenter} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Present' }));
    expect(presenter.present).toHaveBeenLastCalledWith({ lesson: '01-c10k-problem', experiment: 'bbbbbbbbbbbb' });

    // The app marks the block presented; a series started now is presented too.
    const presented = { ...presenter, presenting: true };
    rerender(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" presenter={presented} />);
    expect(screen.getByTestId('presenting')).toHaveTextContent('Presenting · Stop');
    await clickRun('Run 4 benchmarks');
    await waitFor(() => {
      expect(presenter.present).toHaveBeenLastCalledWith({
        lesson: '01-c10k-problem', experiment: 'bbbbbbbbbbbb', sweep_id: 's1',
      });
    });
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/sweeps')?.body).toMatchObject({
      lesson: '01-c10k-problem',
      experiment: 'bbbbbbbbbbbb',
    });
  });
});

