import { act, screen, waitFor, within } from '@testing-library/react';

import { parseRunEventFrame, type RunEventFrame } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { doneData, progress } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { PresentedRun } from './presented-run';

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
    mockFetch({}); // it asks nothing: every figure comes from the frames
  });

  it('draws a relayed run as it goes, through the widget’s state machine, charts and results', async () => {
    const { rerender } = renderWithProviders(<PresentedRun runId="r1" frames={[queued]} />);
    await waitFor(() => {
      expect(label()).toHaveTextContent('Waiting: number 2 in the queue, about 30 s');
    });
    expect(screen.queryByTestId('qps-chart')).toBeInTheDocument(); // a busy run has its charts up

    rerender(<PresentedRun runId="r1" frames={[queued, started, warmup, stats, ...measure]} />);
    await waitFor(() => {
      expect(label()).toHaveTextContent('measuring');
    });
    expect(screen.getByTestId('presented-run')).toHaveTextContent('Run · c-epoll');
    expect(points('qps-chart')).toBe('3');
    expect(points('latency-live-chart')).toBe('4');
    expect(points('server-stats-chart')).toBe('2');

    rerender(<PresentedRun runId="r1" frames={[queued, started, warmup, stats, ...measure, done]} />);
    await waitFor(() => {
      expect(label()).toHaveTextContent('done');
    });
    expect(points('latency-chart')).toBe('6'); // the whole-run distribution
    const results = screen.getByTestId('run-results');
    expect(results).toHaveTextContent('51,235');
    expect(within(results).getByTestId('run-validity')).toHaveTextContent('valid');
  });

  it('ignores a relay that starts over (the class stream reconnected)', async () => {
    const all = [queued, started, warmup, ...measure];
    const { rerender } = renderWithProviders(<PresentedRun runId="r1" frames={all} />);
    await waitFor(() => {
      expect(points('qps-chart')).toBe('3');
    });
    rerender(<PresentedRun runId="r1" frames={[queued, started]} />);
    rerender(<PresentedRun runId="r1" frames={[...all, frame('progress', 8, progress(4, 'measure'))]} />);
    await waitFor(() => {
      expect(points('qps-chart')).toBe('4');
    });
  });

  it('starts afresh for another run', async () => {
    const { rerender } = renderWithProviders(<PresentedRun runId="r1" frames={[queued, started, warmup, ...measure, done]} />);
    await waitFor(() => {
      expect(label()).toHaveTextContent('done');
    });
    rerender(<PresentedRun runId="r2" frames={[frame('queued', 1, { position: null, wait_s: null, held: true })]} />);
    await waitFor(() => {
      expect(label()).toHaveTextContent('paused by the instructor');
    });
    expect(screen.queryByTestId('run-results')).not.toBeInTheDocument();
  });

  it('shows a failed run’s reason and log', async () => {
    renderWithProviders(
      <PresentedRun runId="r1" frames={[started, frame('failed', 3, { reason: 'verify_failed: got 0 bytes', logs: ['Segmentation fault'] })]} />,
    );
    await waitFor(() => {
      expect(label()).toHaveTextContent('failed: verify_failed: got 0 bytes');
    });
    expect(screen.getByTestId('failure-logs')).toHaveTextContent('Segmentation fault');
  });

  it('says the run, its charts and its figures in Chinese once the language is switched', async () => {
    renderWithProviders(<PresentedRun runId="r1" frames={[queued, started, warmup, stats, ...measure, done]} />);
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
