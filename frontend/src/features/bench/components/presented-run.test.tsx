import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { parseRunEventFrame, type RunEventFrame } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aRun, doneData, noise31, progress, servers } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { copiedMarkdown, sharedLink } from '@/testing/shared-result';

import { PresentedRun } from './presented-run';

/** The run as the follow panel draws it, titled as the instructor presents it. */
function presented(runId: string, frames: RunEventFrame[]) {
  return <PresentedRun runId={runId} frames={frames} title="epoll at 100 connections" />;
}

function frame(type: string, seq: number, data: unknown): RunEventFrame {
  const parsed = parseRunEventFrame(type, String(seq), JSON.stringify(data));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.frame;
}

const queued = frame('queued', 1, { position: 2, wait_s: 30 });
const started = frame('started', 2, { server: 'c-epoll', server_cpus: '0', loadgen_cpus: '1' });
const warmup = frame('progress', 3, progress(1, 'warmup'));
const stats = frame('server_stats', 4, { t_s: 1, cpu_percent: 70, memory_bytes: 3 * 2 ** 20, pids: 1 });
const measure = [frame('progress', 5, progress(2, 'measure')), frame('progress', 6, progress(3, 'measure'))];
const done = frame('done', 7, doneData);

const label = () => screen.getByTestId('run-state');
const points = (testId: string) => screen.getByTestId(testId).getAttribute('data-points');

describe('PresentedRun', () => {
  beforeEach(() => {
    // Every figure comes from the frames; what was asked and when, from the run's record.
    mockFetch({ 'GET /api/runs/r1': aRun(), 'GET /api/servers': servers });
  });

  it('draws a relayed run as it goes, through the widget’s state machine, charts and results', async () => {
    const { rerender } = renderWithProviders(presented('r1', [queued]));
    await waitFor(() => {
      expect(label()).toHaveTextContent('Waiting: number 2 in the queue, about 30 s');
    });
    expect(await screen.findByTestId('qps-chart')).toBeInTheDocument(); // a busy run has its charts up (their code loads lazily)

    rerender(presented('r1', [queued, started, warmup, stats, ...measure]));
    await waitFor(() => {
      expect(label()).toHaveTextContent('measuring');
    });
    expect(screen.getByTestId('presented-run')).toHaveTextContent('Run · c-epoll');
    expect(points('qps-chart')).toBe('3');
    expect(points('latency-live-chart')).toBe('4');
    expect(points('server-stats-chart')).toBe('2');

    rerender(presented('r1', [queued, started, warmup, stats, ...measure, done]));
    await waitFor(() => {
      expect(label()).toHaveTextContent('done');
    });
    expect(points('latency-chart')).toBe('6'); // the whole-run distribution
    const results = screen.getByTestId('run-results');
    expect(results).toHaveTextContent('51,235');
    expect(within(results).getByTestId('run-validity')).toHaveTextContent('valid');
  });

  it('shares the run by its permalink, and its exports say what it is: title, setup, figures with their uncertainty, host, date', async () => {
    const user = userEvent.setup();
    const link = `${window.location.origin}${window.location.pathname}#/runs/r1`;
    const measured = frame('done', 7, { ...doneData, host_noise: noise31, provenance: { ...doneData.provenance, cpu_model: 'AMD EPYC 7B13', cpus: 2 } });
    renderWithProviders(presented('r1', [queued, started, warmup, stats, ...measure, measured]));
    await waitFor(() => {
      expect(label()).toHaveTextContent('done');
    });
    expect(await sharedLink(user)).toEqual({ copied: link, shown: link });

    // Its title is the presentation's; its setup is the run's record, its figures the frames'.
    const markdown = await copiedMarkdown(user, 'Export the results', '**epoll at 100 connections**');
    expect(markdown).toContain('- Server: epoll, level-triggered (c-epoll)\n- Protocol: echo\n- Connections: 100\n');
    expect(markdown).toMatch(/- Throughput: 51,235 req\/s \(a second run could land ±[\d.]+ % away by this host's run-to-run spread\)\n/);
    expect(markdown).toContain('- Latency: p50 120 µs · p99 900 µs · p99.9 2.10 ms\n- CPU: AMD EPYC 7B13, 2 CPUs\n');
    expect(markdown).toMatch(new RegExp(`- Measured: .+ \\(2026-11-25T10:01:00\\+00:00\\)\\n- ${link}\\n`));
  });

  it('ignores a relay that starts over (the class stream reconnected)', async () => {
    const all = [queued, started, warmup, ...measure];
    const { rerender } = renderWithProviders(presented('r1', all));
    await waitFor(() => {
      expect(points('qps-chart')).toBe('3');
    });
    rerender(presented('r1', [queued, started]));
    rerender(presented('r1', [...all, frame('progress', 8, progress(4, 'measure'))]));
    await waitFor(() => {
      expect(points('qps-chart')).toBe('4');
    });
  });

  it('starts afresh for another run', async () => {
    const { rerender } = renderWithProviders(presented('r1', [queued, started, warmup, ...measure, done]));
    await waitFor(() => {
      expect(label()).toHaveTextContent('done');
    });
    rerender(presented('r2', [frame('queued', 1, { position: null, wait_s: null, held: true })]));
    await waitFor(() => {
      expect(label()).toHaveTextContent('paused by the instructor');
    });
    expect(screen.queryByTestId('run-results')).not.toBeInTheDocument();
  });

  it('shows a failed run’s reason and log', async () => {
    renderWithProviders(
      presented('r1', [started, frame('failed', 3, { reason: 'verify_failed: got 0 bytes', logs: ['Segmentation fault'] })]),
    );
    await waitFor(() => {
      expect(label()).toHaveTextContent('failed: verify_failed: got 0 bytes');
    });
    expect(screen.getByTestId('failure-logs')).toHaveTextContent('Segmentation fault');
  });

  it('says the run, its charts and its figures in Chinese once the language is switched', async () => {
    renderWithProviders(presented('r1', [queued, started, warmup, stats, ...measure, done]));
    await waitFor(() => {
      expect(label()).toHaveTextContent('done');
    });
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(label()).toHaveTextContent('已完成');
    expect(screen.getByTestId('presented-run')).toHaveTextContent('运行 · c-epoll');
    expect(screen.getByTestId('qps-chart')).toHaveTextContent('吞吐量（QPS）');
    expect(screen.getByTestId('latency-chart')).toHaveTextContent('各百分位的延迟');
    expect(screen.getByTestId('server-stats-chart')).toHaveTextContent('服务器 CPU 与内存');
    const results = screen.getByTestId('run-results');
    expect(within(results).getByRole('rowheader', { name: '吞吐量' })).toBeInTheDocument();
    expect(within(results).getByTestId('run-validity')).toHaveTextContent('有效');
    // Figures keep their one format and their units in every language.
    expect(results).toHaveTextContent('51,235 req/s');
  });
});
