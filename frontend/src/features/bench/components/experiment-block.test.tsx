import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { LessonExperiment } from '@/lib/api-schemas';
import { findChart } from '@/testing/charts';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aProvenance, aRun, anExperiment, doneData, healthyHealth, progress, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { saveRunId } from '../lib/saved-runs';

import { ExperimentBlock } from './experiment-block';

const block = `title: epoll under load
server: c-epoll
connections: 100
payload_bytes: 64
duration_s: 5
warmup_s: 1
protocol: echo
knobs:
  trigger: et
`;

const lessonSlug = '01-c10k-problem';
const KEY = '3f2a9c0b1d4e';

/** `block` as GET /api/lessons/{slug} lists it: its key, title and the run the backend parsed. */
function runRef(overrides: Partial<LessonExperiment> = {}) {
  return anExperiment(block.trim(), {
    key: KEY,
    title: 'epoll under load',
    run: { server: 'c-epoll', connections: 100, payload_bytes: 64, duration_s: 5, warmup_s: 1, protocol: 'echo', knobs: { trigger: 'et' } },
    ...overrides,
  });
}

/** The lesson as GET /api/lessons/{slug} lists its blocks. */
function lessonWith(experiments: LessonExperiment[]) {
  return {
    slug: lessonSlug,
    title: 'The C10K problem',
    summary: 'Why ten thousand connections were hard.',
    minutes: 15,
    order: 1,
    prerequisites: [],
    markdown: '',
    diagrams: [],
    figures: [],
    language: 'en',
    prev: null,
    next: null,
    experiments,
  };
}

/** The API, the lesson listing `block` unless told otherwise. */
function api(overrides: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/health': healthyHealth,
    'GET /api/servers': servers,
    [`GET /api/lessons/${lessonSlug}`]: lessonWith([runRef()]),
    'POST /api/runs': reply(202, { id: 'r1', status: 'queued', position: 1, wait_s: 0 }),
    ...overrides,
  });
}

/** GET /api/lessons/{slug}/baselines: `block` recorded on 2026-11-22 where `provenance` says,
 *  one measured interval then done. */
function recordedBlock(provenance: ReturnType<typeof aProvenance>) {
  const result = { events: [{ type: 'progress', data: progress(1, 'measure') }, { type: 'done', data: doneData }] };
  return {
    lesson: '01-c10k-problem',
    experiments: [{ block, kind: 'run', key: KEY, recorded_at: '2026-11-22T08:00:00+00:00', provenance, result }],
  };
}

async function clickRun() {
  const button = await screen.findByRole('button', { name: 'Run benchmark' });
  await waitFor(() => {
    expect(button).toBeEnabled();
  });
  await userEvent.click(button);
}

/** Renders the widget for `block` and presses Run. */
async function renderAndRun() {
  renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
  await clickRun();
}

const state = () => screen.getByTestId('run-state');

/** Waits for the run's state label to say `text`. */
async function stateSays(text: string) {
  await waitFor(() => {
    expect(state()).toHaveTextContent(text);
  });
}

/** The run's stream sends a `queued` event (its place, its wait). */
function queued(data: { position: number | null; wait_s: number | null; held?: boolean }, seq: number) {
  act(() => {
    FakeEventSource.latest().emit('queued', data, seq);
  });
}
const points = (testId: string) => screen.getByTestId(testId).getAttribute('data-points');

describe('ExperimentBlock', () => {
  it('shows the parameters with the catalog title', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
    expect(await screen.findByText('epoll under load')).toBeInTheDocument();
    const params = screen.getByTestId('experiment-params');
    expect(await within(params).findByText('epoll, level-triggered (c-epoll)')).toBeInTheDocument();
    expect(within(params).getByText('100')).toBeInTheDocument();
    expect(within(params).getByText('64 B')).toBeInTheDocument();
    expect(within(params).getByText('et')).toBeInTheDocument();
    expect(state()).toHaveTextContent('not run yet');
  });

  it('opens in the lab with the block filled in', async () => {
    api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
    const link = await screen.findByRole('link', { name: 'Open in lab' });
    const search = new URLSearchParams(link.getAttribute('href')?.split('?')[1]);
    expect(Object.fromEntries(search)).toEqual({
      servers: 'c-epoll',
      connections: '100',
      payload_bytes: '64',
      duration_s: '5',
      warmup_s: '1',
      protocol: 'echo',
      'knob.c-epoll.trigger': 'et',
    });
  });

  it('shows the recorded reference result at once, and offers to run it live', async () => {
    api({ 'GET /api/lessons/01-c10k-problem/baselines': recordedBlock(aProvenance({ cpu_model: 'AMD EPYC', kernel: '6.18.44' })) });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    expect(await screen.findByTestId('baseline-note')).toHaveTextContent('recorded 2026-11-22, on AMD EPYC, Linux 6.18.44');
    expect(screen.getByTestId('run-results')).toHaveTextContent('51,235');
    await findChart('qps-chart');
    expect(points('qps-chart')).toBe('1');
    // One label before a run and after it; the note quotes it.
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();
    expect(screen.getByTestId('baseline-note')).toHaveTextContent('Press Run benchmark to measure it on this machine now.');
  });

  it('shows no reference result for a block whose request changed since it was recorded', async () => {
    const { calls } = api({
      'GET /api/lessons/01-c10k-problem/baselines': {
        lesson: '01-c10k-problem',
        // A recording of another request: the block's was changed since.
        experiments: [{ block: 'server: c-poll', key: '0123456789ab', kind: 'run', recorded_at: '2026-11-22', provenance: aProvenance(), result: { events: [] } }],
      },
    });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" />);
    await waitFor(() => {
      expect(calls.some((c) => c.path.endsWith('/baselines'))).toBe(true);
    });
    expect(screen.queryByTestId('baseline-note')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();
  });

  it('shows the backend’s reason for a block it could not parse, with the block’s text, not a crash', async () => {
    const broken = 'server: [c-epoll\nconnections: 10';
    const error = 'The experiment block is invalid: not valid YAML: while parsing a flow sequence';
    api({ [`GET /api/lessons/${lessonSlug}`]: lessonWith([anExperiment(broken, { error })]) });
    renderWithProviders(<ExperimentBlock code={broken} lessonSlug={lessonSlug} />);
    const shown = await screen.findByTestId('experiment-error');
    expect(shown).toHaveTextContent(error);
    expect(shown).toHaveTextContent('connections: 10');
    expect(screen.queryByRole('button', { name: 'Run benchmark' })).not.toBeInTheDocument();
  });

  it('says the experiment is loading until its lesson is, and that it runs only from its lesson outside one', async () => {
    const { calls } = api();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the experiment…');
    expect(await screen.findByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();

    const outside = renderWithProviders(<ExperimentBlock code={block} />);
    expect(within(outside.container).getByTestId('experiment-note')).toHaveTextContent('This experiment runs only from its lesson');
    expect(within(outside.container).queryByRole('button', { name: /Run/ })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === `/api/lessons/${lessonSlug}`)).toHaveLength(1);
  });

  it('says why it cannot run when its lesson does not load', async () => {
    api({ [`GET /api/lessons/${lessonSlug}`]: reply(500, { detail: 'the content directory is unreadable' }) });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
    expect(await screen.findByTestId('experiment-error')).toHaveTextContent('The lesson could not be loaded');
  });

  it('runs a benchmark: POST, then SSE drives the label and the charts', async () => {
    const { calls } = api();
    await renderAndRun();

    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      server: 'c-epoll',
      connections: 100,
      payload_bytes: 64,
      duration_s: 5,
      warmup_s: 1,
      protocol: 'echo',
      knobs: { trigger: 'et' },
      lesson: lessonSlug,
      experiment: KEY,
    });
    await stateSays('Waiting: number 1 in the queue');
    const es = FakeEventSource.latest();
    expect(es.url).toBe('/api/runs/r1/events');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeDisabled();

    act(() => {
      es.open();
      es.emit('queued', { position: 1 }, 1);
      es.emit('started', { server: 'c-epoll', server_cpus: '0', loadgen_cpus: '1' }, 2);
    });
    await stateSays('starting');

    act(() => {
      es.emit('progress', progress(1, 'warmup'), 3);
      es.emit('server_stats', { t_s: 1, cpu_percent: 70, memory_bytes: 3 * 2 ** 20, pids: 1 }, 4);
    });
    await stateSays('warming up');

    act(() => {
      es.emit('progress', progress(2, 'measure'), 5);
      es.emit('progress', progress(3, 'measure'), 6);
    });
    await stateSays('measuring');
    expect(screen.getByTestId('run-quiet-drawing')).toHaveTextContent('the charts catch up when the measurement ends');
    await findChart('qps-chart');
    expect(points('qps-chart')).toBe('3');
    expect(points('latency-live-chart')).toBe('4'); // p50 + p99 of two measured intervals
    expect(points('latency-chart')).toBe('4'); // the newest interval: 50/90/99/99.9
    expect(points('server-stats-chart')).toBe('2');
    // The warm-up point is its own dataset, and datasets are keyed by id.
    const qpsStub = within(screen.getByTestId('qps-chart')).getByTestId('chart-stub');
    expect(qpsStub).toHaveAttribute('data-dataset-id-key', 'id');
    expect(JSON.parse(qpsStub.getAttribute('data-datasets') ?? '')).toEqual([
      { id: 'warm-up', n: 1 },
      { id: 'measure', n: 2 },
    ]);

    act(() => {
      es.emit('done', doneData, 7);
    });
    await stateSays('done');
    expect(screen.queryByTestId('run-quiet-drawing')).not.toBeInTheDocument();
    expect(es.closed).toBe(true);
    expect(points('latency-chart')).toBe('6'); // the whole-run distribution
    const results = screen.getByTestId('run-results');
    expect(results).toHaveTextContent('51,235');
    expect(results).toHaveTextContent('p99 900 µs');
    expect(results).toHaveTextContent('p99.9 2.10 ms');
    expect(screen.getByTestId('run-validity')).toHaveTextContent('valid');
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeEnabled();
  });

  it('ignores events replayed after the browser reconnects', async () => {
    api({ 'GET /api/runs/r1': { id: 'r1', server: 'c-epoll', status: 'running', position: null } });
    await renderAndRun();
    const es = FakeEventSource.latest();
    act(() => {
      es.emit('started', { server: 'c-epoll' }, 1);
      es.emit('progress', progress(1, 'warmup'), 2);
      es.emit('progress', progress(2, 'measure'), 3);
    });
    await findChart('qps-chart');
    await waitFor(() => {
      expect(points('qps-chart')).toBe('2');
    });
    act(() => {
      es.fail(); // EventSource reconnects by itself, sending Last-Event-ID: 3
    });
    await waitFor(() => {
      expect(screen.getByText('reconnecting…')).toBeInTheDocument();
    });
    act(() => {
      es.open();
      es.emit('progress', progress(1, 'warmup'), 2);
      es.emit('progress', progress(2, 'measure'), 3);
      es.emit('progress', progress(3, 'measure'), 4);
    });
    await waitFor(() => {
      expect(points('qps-chart')).toBe('3');
    });
    expect(state()).toHaveTextContent('measuring');
  });

  it('re-opens the stream with ?last_event_id when the browser gives up', async () => {
    api({ 'GET /api/runs/r1': { id: 'r1', server: 'c-epoll', status: 'running', position: null } });
    await renderAndRun();
    const first = FakeEventSource.latest();
    act(() => {
      first.emit('started', { server: 'c-epoll' }, 1);
      first.emit('progress', progress(1, 'warmup'), 2);
      first.fail(true);
    });
    await waitFor(
      () => {
        expect(FakeEventSource.instances).toHaveLength(2);
      },
      { timeout: 3000 },
    );
    expect(FakeEventSource.latest().url).toBe('/api/runs/r1/events?last_event_id=2');
  });

  it('shows the failure reason and the server log in a collapsible', async () => {
    api();
    await renderAndRun();
    act(() => {
      FakeEventSource.latest().emit('started', { server: 'c-epoll' }, 1);
      FakeEventSource.latest().emit('failed', { reason: 'verify_failed: got 0 bytes', logs: ['c-epoll: listening', 'Segmentation fault'] }, 2);
    });
    await stateSays('failed: verify_failed: got 0 bytes');
    const logs = screen.getByTestId('failure-logs');
    expect(logs.tagName).toBe('DETAILS');
    expect(logs).not.toHaveAttribute('open');
    expect(within(logs).getByText('Server log (last 2 lines)')).toBeInTheDocument();
    expect(logs).toHaveTextContent('Segmentation fault');
  });

  it('shows a rejected request (422) as failed with the server’s sentence', async () => {
    // A host that runs c-epoll with at most 50 connections, asked for the block's 100.
    api({ 'POST /api/runs': reply(422, problem('too-many-connections', { server: 'c-epoll', most: 50, got: 100 })) });
    await renderAndRun();
    await stateSays('failed: c-epoll can be run with at most 50 connections here (got 100).');
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it('says the place in the queue and the estimated wait, from POST’s answer and then the queued events', async () => {
    api({ 'POST /api/runs': reply(202, { id: 'r1', status: 'queued', position: 3, wait_s: 40 }) });
    await renderAndRun();
    await stateSays('Waiting: number 3 in the queue, about 40 s');
    queued({ position: 2, wait_s: 21 }, 1);
    await stateSays('Waiting: number 2 in the queue, about 21 s');
  });

  it('shows the server’s sentence when the queue is full (429)', async () => {
    api({ 'POST /api/runs': reply(429, problem('person-queue-full', { waiting: 2, most: 2, retry: 30, wanted: 1 })) });
    await renderAndRun();
    await stateSays(
      'failed: You already have 2 runs waiting and may have at most 2: try again in about 30 s, ' +
        'when enough of them have started to make room for 1 more, or cancel one.',
    );
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeEnabled();
  });

  it('shows a link to join instead of Run when this browser may not run, and still the recorded result', async () => {
    const { calls } = api({ 'GET /api/lessons/01-c10k-problem/baselines': recordedBlock(aProvenance()) });
    const gate = { label: 'Join your class to run benchmarks', to: '/join' };
    renderWithProviders(<ExperimentBlock code={block} lessonSlug="01-c10k-problem" gate={gate} />);
    expect(await screen.findByTestId('baseline-note')).not.toHaveTextContent('Press');
    expect(screen.getByTestId('run-results')).toHaveTextContent('51,235');
    const link = within(screen.getByTestId('run-gate')).getByRole('link', { name: 'Join your class to run benchmarks' });
    expect(link).toHaveAttribute('href', '/join');
    expect(screen.queryByRole('button', { name: /Run/ })).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('gates a series experiment the same way', async () => {
    const series = 'servers: [c-poll, c-epoll]\nvary: connections\nvalues: [10, 100]\nduration_s: 3\n';
    api({
      [`GET /api/lessons/${lessonSlug}`]: lessonWith([
        anExperiment(series.trim(), { sweep: { servers: ['c-poll', 'c-epoll'], vary: 'connections', values: [10, 100], base: { duration_s: 3 } } }),
      ]),
    });
    renderWithProviders(<ExperimentBlock code={series} lessonSlug={lessonSlug} gate={{ label: 'Join your class to run benchmarks', to: '/join' }} />);
    expect(await screen.findByTestId('series-experiment')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Join your class to run benchmarks' })).toHaveAttribute('href', '/join');
    expect(screen.queryByRole('button', { name: /Run/ })).not.toBeInTheDocument();
  });

  it('cancels a queued run with DELETE', async () => {
    const { calls } = api({ 'DELETE /api/runs/r1': { id: 'r1', status: 'cancelled' } });
    await renderAndRun();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await stateSays('cancelled');
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/runs/r1')).toBe(true);
    expect(FakeEventSource.latest().closed).toBe(true);
  });

  it('keeps the previous run on show when the next one is cancelled halfway', async () => {
    api({ 'DELETE /api/runs/r1': { id: 'r1', status: 'cancelled' } });
    await renderAndRun();
    act(() => {
      const es = FakeEventSource.latest();
      es.emit('started', { server: 'c-epoll', server_cpus: '0', loadgen_cpus: '1' }, 1);
      es.emit('progress', progress(1, 'measure'), 2);
      es.emit('done', doneData, 3);
    });
    await stateSays('done');
    await clickRun();
    act(() => {
      const es = FakeEventSource.latest();
      es.emit('started', { server: 'c-epoll', server_cpus: '0', loadgen_cpus: '1' }, 1);
      es.emit('progress', { ...progress(1, 'measure'), qps: 7 }, 2);
    });
    await stateSays('measuring');
    expect(screen.queryByTestId('run-results')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await stateSays('cancelled');
    // Not a failure, and the first run's figures are back, said to be the previous run.
    expect(state()).toHaveAttribute('data-phase', 'cancelled');
    expect(screen.queryByTestId('failure-logs')).not.toBeInTheDocument();
    expect(screen.getByTestId('run-kept')).toHaveTextContent('your previous run is shown');
    expect(screen.getByTestId('run-results')).toHaveTextContent('51,235');
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeEnabled();
  });

  it('goes back to the recorded reference when the first run is cancelled', async () => {
    api({
      'GET /api/lessons/01-c10k-problem/baselines': recordedBlock(aProvenance()),
      'DELETE /api/runs/r1': { id: 'r1', status: 'cancelled' },
    });
    await renderAndRun();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await stateSays('cancelled');
    expect(screen.getByTestId('run-kept')).toHaveTextContent('the recorded reference is shown');
    expect(screen.getByTestId('run-results')).toHaveTextContent('51,235');
  });

  it('disables Run with the reason when Docker is unreachable', async () => {
    api({
      'GET /api/health': { ...healthyHealth, docker: { reachable: false, version: null, error: 'connection refused' }, images: {}, ready: false },
    });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
    await waitFor(() => {
      expect(screen.getByTestId('run-blocked')).toHaveTextContent('Docker is unreachable: connection refused');
    });
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeDisabled();
  });

  it('re-attaches to the last run of this experiment after a reload', async () => {
    api({ 'GET /api/runs/r9': aRun({ id: 'r9' }) });
    // What the widget saved when it started r9: the lesson and the block's key.
    saveRunId(`${lessonSlug}/${KEY}`, 'r9');

    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
    await waitFor(() => {
      expect(FakeEventSource.instances).toHaveLength(1);
    });
    const es = FakeEventSource.latest();
    expect(es.url).toBe('/api/runs/r9/events');
    act(() => {
      es.emit('started', { server: 'c-epoll' }, 1);
      es.emit('progress', progress(1, 'measure'), 2);
      es.emit('done', doneData, 3);
    });
    await stateSays('done');
    await findChart('qps-chart');
    expect(points('qps-chart')).toBe('1');
  });

  it('says a held run keeps its place while the class is paused', async () => {
    api({ 'POST /api/runs': reply(202, { id: 'r1', status: 'queued', position: null, wait_s: null, held: true }) });
    await renderAndRun();
    await waitFor(() => {
      expect(state()).toHaveTextContent("Your class's runs are paused by the instructor; yours keeps its place");
    });
    queued({ position: 1, wait_s: 12 }, 1);
    await stateSays('Waiting: number 1 in the queue, about 12 s');
    queued({ position: null, wait_s: null, held: true }, 2);
    await stateSays('paused by the instructor');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });
});

function presenterStub(presenting = false) {
  return {
    present: vi.fn(() => Promise.resolve()),
    stop: vi.fn(() => Promise.resolve()),
    presenting,
  };
}

describe('ExperimentBlock in a lesson the server lists', () => {
  it('tags a run with the lesson and the block’s key', async () => {
    const { calls } = api({ [`GET /api/lessons/${lessonSlug}`]: lessonWith([runRef()]) });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} />);
    await waitFor(() => {
      expect(calls.some((c) => c.path === `/api/lessons/${lessonSlug}`)).toBe(true);
    });
    await clickRun();
    await waitFor(() => {
      expect(calls.some((c) => c.method === 'POST')).toBe(true);
    });
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ server: 'c-epoll', lesson: lessonSlug, experiment: KEY });
    expect(screen.queryByRole('button', { name: 'Present' })).not.toBeInTheDocument(); // no presenter given
  });

  it('offers an instructor Present, which shows the class the experiment and its last run', async () => {
    api({ [`GET /api/lessons/${lessonSlug}`]: lessonWith([runRef()]) });
    const presenter = presenterStub();
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} presenter={presenter} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Present' }));
    expect(presenter.present).toHaveBeenLastCalledWith({ lesson: lessonSlug, experiment: KEY });

    // Once it has a run, presenting shows that run.
    await clickRun();
    await stateSays('Waiting: number 1 in the queue');
    expect(presenter.present).toHaveBeenCalledTimes(1); // not presented: Run does not present it
    await userEvent.click(screen.getByRole('button', { name: 'Present' }));
    expect(presenter.present).toHaveBeenLastCalledWith({ lesson: lessonSlug, experiment: KEY, run_id: 'r1' });
  });

  it('shows "Presenting · Stop" on the presented block, and presents each new run so the class follows it', async () => {
    api({ [`GET /api/lessons/${lessonSlug}`]: lessonWith([runRef()]) });
    const presenter = presenterStub(true);
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} presenter={presenter} />);
    const presenting = await screen.findByTestId('presenting');
    expect(presenting).toHaveTextContent('Presenting · Stop');
    expect(screen.queryByRole('button', { name: 'Present' })).not.toBeInTheDocument();

    await clickRun();
    await waitFor(() => {
      expect(presenter.present).toHaveBeenCalledWith({ lesson: lessonSlug, experiment: KEY, run_id: 'r1' });
    });

    await userEvent.click(within(presenting).getByRole('button', { name: 'Stop presenting' }));
    expect(presenter.stop).toHaveBeenCalledTimes(1);
  });

  it('says why presenting failed', async () => {
    api({ [`GET /api/lessons/${lessonSlug}`]: lessonWith([runRef()]) });
    const presenter = { ...presenterStub(), present: vi.fn(() => Promise.reject(new Error('no class to present to'))) };
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} presenter={presenter} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Present' }));
    expect(await screen.findByTestId('present-error')).toHaveTextContent('Presenting failed: no class to present to');
  });

  it('runs nor presents a block the lesson does not list (edited since the page loaded), and says to reload', async () => {
    const { calls } = api({ [`GET /api/lessons/${lessonSlug}`]: lessonWith([runRef({ source: 'server: c-poll' })]) });
    renderWithProviders(<ExperimentBlock code={block} lessonSlug={lessonSlug} presenter={presenterStub()} />);
    expect(await screen.findByTestId('experiment-error')).toHaveTextContent('reload the page');
    expect(screen.queryByRole('button', { name: /Run|Present/ })).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

