import { act, screen, waitFor, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { findChart } from '@/testing/charts';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aLesson, aProvenance, doneData, progress, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { RunPermalink } from './run-permalink';

const provenance = aProvenance({
  runner: 'runner-2',
  runner_host: 'lab-host',
  cpu_model: 'AMD EPYC 7763',
  cpus: 4,
  kernel: '6.12.1',
  docker_version: '28.1.1',
  loadgen_image: { tag: 'c10klab/loadgen:dev', id: 'sha256:0123456789abcdef0123' },
  loadgen_version: '0.4.0',
  server_cpus: '0',
  loadgen_cpus: '1',
  course_cpus: '2,3',
  server_pids_limit: 150,
});

function runRecord(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'r1',
    server: 'c-epoll',
    status,
    request: { server: 'c-epoll', connections: 200, duration_s: 5, warmup_s: 1, protocol: 'echo', knobs: {}, lesson: '01-c10k-problem', experiment: 'aaaaaaaaaaaa' },
    created_at: '2026-11-24T09:30:00Z',
    started_at: null,
    finished_at: null,
    position: status === 'queued' ? 1 : null,
    wait_s: status === 'queued' ? 12 : null,
    owner_id: 'p1',
    result: null,
    error: null,
    ...extra,
  };
}

const lesson = { ...aLesson([]), markdown: '# The C10K problem' };

function routes(run: unknown) {
  return { 'GET /api/runs/r1': run, 'GET /api/servers': servers, 'GET /api/lessons/01-c10k-problem': lesson };
}

/** The run's stream, once the page has opened it. */
async function stream(): Promise<FakeEventSource> {
  await waitFor(() => {
    expect(FakeEventSource.instances.length).toBeGreaterThan(0);
  });
  const es = FakeEventSource.latest();
  expect(es.url).toContain('/api/runs/r1/events');
  expect(es.url).not.toContain('last_event_id'); // from the first event
  return es;
}

describe('RunPermalink', () => {
  it('replays a finished run: title, parameters, charts, table, provenance and the way back to its lesson', async () => {
    mockFetch(routes(runRecord('done', { result: { ...doneData, provenance } })));
    renderWithProviders(<RunPermalink runId="r1" />);
    const es = await stream();
    act(() => {
      es.open();
      es.emit('started', { server: 'c-epoll' }, 1);
      es.emit('progress', progress(1, 'warmup'), 2);
      es.emit('progress', progress(2, 'measure'), 3);
      es.emit('done', { ...doneData, provenance }, 4);
    });
    await waitFor(() => {
      expect(screen.getByTestId('run-state')).toHaveTextContent('done');
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/run$/);
    expect(screen.getByTestId('run-permalink')).toHaveTextContent('Run · c-epoll');
    expect(screen.getByTestId('experiment-params')).toHaveTextContent('200');
    expect(await findChart('qps-chart')).toHaveAttribute('data-points', '2');
    expect(screen.getByTestId('run-results')).toHaveTextContent('51,235');
    expect(screen.getByRole('group', { name: 'Export the results' })).toContainElement(screen.getByTestId('export-csv'));
    expect(screen.getAllByTestId('export-png')).toHaveLength(4); // every chart

    const rows = within(screen.getByTestId('provenance'));
    expect(rows.getByText('runner-2 on lab-host')).toBeInTheDocument();
    expect(rows.getByText('AMD EPYC 7763, 4 CPUs')).toBeInTheDocument();
    expect(rows.getByText('Linux 6.12.1')).toBeInTheDocument();
    expect(rows.getByText('on CPU 2,3, off the measured ones')).toBeInTheDocument();
    expect(rows.getByText('150 processes and threads')).toBeInTheDocument();
    expect(rows.getByText('c10klab/loadgen:dev (0123456789ab), version 0.4.0')).toBeInTheDocument();

    await waitFor(() => {
      expect(screen.getByTestId('permalink-lesson')).toHaveTextContent('The C10K problem');
    });
    expect(screen.getByTestId('permalink-lesson')).toHaveAttribute('href', '/lessons/01-c10k-problem');
    expect(document.title).toMatch(/ run, 2[45] Nov 2026, \d\d:\d\d · C10K Lab$/);
  });

  it('follows a queued run live', async () => {
    mockFetch(routes(runRecord('queued')));
    renderWithProviders(<RunPermalink runId="r1" />);
    const es = await stream();
    act(() => {
      es.emit('queued', { position: 1, wait_s: 12 }, 1);
    });
    await waitFor(() => {
      expect(screen.getByTestId('run-state')).toHaveTextContent('number 1 in the queue');
    });
    expect(screen.getByText(/this page follows it live/)).toBeInTheDocument();
    expect(screen.getByText(/Recorded when the run finishes/)).toBeInTheDocument();
    act(() => {
      es.emit('started', { server: 'c-epoll' }, 2);
      es.emit('progress', progress(1, 'measure'), 3);
    });
    await waitFor(() => {
      expect(screen.getByTestId('run-state')).toHaveTextContent('measuring');
    });
    expect(await findChart('qps-chart')).toHaveAttribute('data-points', '1');
  });

  it.each([
    [404, problem('no-run', { run_id: 'r1' }), 'No run r1', 'check the link'],
    [
      403,
      problem('run-not-yours'),
      'This run is not yours to see',
      'This run belongs to someone else: you can see only your own and your class’s.',
    ],
    [401, problem('not-signed-in'), 'Join the class to see this run', 'Join with the class code'],
  ])('says why a %i answer opens nothing, not a blank page', async (status, refusal, heading, advice) => {
    mockFetch({ 'GET /api/runs/r1': reply(status, refusal) });
    renderWithProviders(<RunPermalink runId="r1" />);
    const page = await screen.findByTestId('permalink-problem');
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent(heading);
    expect(page).toHaveTextContent(advice);
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it('says why it opens nothing in Chinese, its links inside the sentence', async () => {
    mockFetch({ 'GET /api/runs/r1': reply(401, problem('not-signed-in')) });
    renderWithProviders(<RunPermalink runId="r1" />);
    const page = await screen.findByTestId('permalink-problem');
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('加入班级后才能查看这次运行');
    expect(page).toHaveTextContent('班级中的结果只对班级成员开放。请用班级码加入或以讲师身份登录，然后重新打开链接。');
    expect(within(page).getByRole('link', { name: '用班级码加入' })).toHaveAttribute('href', '/join');
    expect(within(page).getByRole('link', { name: '以讲师身份登录' })).toHaveAttribute('href', '/login');
  });
});
