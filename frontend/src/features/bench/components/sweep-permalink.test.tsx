import { act, screen, waitFor, within } from '@testing-library/react';

import type { SweepPoint } from '@/lib/api-schemas';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aLesson, aPoint, aProvenance, aRun, doneData, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { SweepPermalink } from './sweep-permalink';

function point(server: string, value: number, extra: Partial<SweepPoint> = {}) {
  return aPoint({ server, value, qps: 40_000 + value, p99_us: 500, ...extra });
}

const request = { servers: ['c-epoll', 'c-poll'], vary: 'connections', values: [100, 1000], base: { duration_s: 5 }, lesson: '02-blocking' };
const finished = {
  id: 's1',
  request,
  created_at: '2026-11-24T09:30:00Z',
  finished: true,
  points: [point('c-epoll', 100), point('c-poll', 100), point('c-epoll', 1000), point('c-poll', 1000)],
  memory_per_connection: {},
};
const provenance = aProvenance({ runner: 'runner-1', runner_host: 'lab-host', cpu_model: 'AMD EPYC 7763', cpus: 4 });
const firstRun = aRun({ id: 'run-c-epoll-100', result: { ...doneData, provenance } });
const lesson = { ...aLesson([]), slug: '02-blocking', title: 'One process per connection', order: 2, markdown: '#' };

describe('SweepPermalink', () => {
  it('draws a finished series from its table: charts, points, exports, each run and the provenance', async () => {
    mockFetch({
      'GET /api/sweeps/s1': finished,
      'GET /api/servers': servers,
      'GET /api/runs/run-c-epoll-100': firstRun,
      'GET /api/lessons/02-blocking': lesson,
    });
    renderWithProviders(<SweepPermalink sweepId="s1" />);
    const page = await screen.findByTestId('sweep-permalink');
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('c-epoll vs c-poll by connections');
    expect(screen.getByTestId('series-state')).toHaveTextContent('done');
    expect(screen.getByTestId('experiment-params')).toHaveTextContent('100, 1,000');
    expect(screen.getByTestId('series-table').querySelectorAll('tbody tr')).toHaveLength(4);
    expect(within(page).getByRole('group', { name: 'Export the series' })).toBeInTheDocument();
    expect(within(screen.getByTestId('sweep-runs')).getByRole('link', { name: 'c-poll at 1,000' })).toHaveAttribute(
      'href',
      '/runs/run-c-poll-1000',
    );
    await waitFor(() => {
      expect(within(screen.getByTestId('provenance')).getByText('runner-1 on lab-host')).toBeInTheDocument();
    });
    expect(await screen.findByTestId('permalink-lesson')).toHaveTextContent('One process per connection');
    expect(FakeEventSource.instances).toHaveLength(0); // a finished series needs no stream
  });

  it('follows a series still running from its first point', async () => {
    const running = { ...finished, finished: false, points: finished.points.map((p) => ({ ...p, status: 'queued', qps: null })) };
    mockFetch({ 'GET /api/sweeps/s1': running, 'GET /api/servers': servers, 'GET /api/lessons/02-blocking': lesson });
    renderWithProviders(<SweepPermalink sweepId="s1" />);
    await waitFor(() => {
      expect(FakeEventSource.instances).toHaveLength(1);
    });
    const es = FakeEventSource.latest();
    expect(es.url).toContain('/api/sweeps/s1/events');
    expect(screen.getByTestId('series-state')).toHaveTextContent('0 of 4 points done');
    expect(screen.getByText(/Recorded as the points are measured/)).toBeInTheDocument();
    act(() => {
      es.emit('point', point('c-epoll', 100), 1);
    });
    await waitFor(() => {
      expect(screen.getByTestId('series-state')).toHaveTextContent('1 of 4 points done');
    });
    expect(screen.getByTestId('series-table').querySelectorAll('tbody tr')).toHaveLength(1);
  });

  it('says so when the series is another class’s', async () => {
    mockFetch({ 'GET /api/sweeps/s1': reply(403, problem('sweep-not-yours')) });
    renderWithProviders(<SweepPermalink sweepId="s1" />);
    const page = await screen.findByTestId('permalink-problem');
    expect(page).toHaveTextContent('This series is not yours to see');
    expect(page).toHaveTextContent('This sweep belongs to someone else: you can see only your own and your class’s.');
  });
});
