import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { doneEventSchema } from '@/lib/api-schemas';
import { doneData, noise31 } from '@/testing/fixtures';

import { RunResults } from './run-results';

const digest = { p50: 100, p90: 200, p99: 700, p999: 900, max: 1000 };

function renderResult(extra: Record<string, unknown>, summaryExtra: Record<string, unknown> = {}) {
  const result = doneEventSchema.parse({ ...doneData, ...extra, summary: { ...doneData.summary, ...summaryExtra } });
  render(<RunResults result={result} />);
}

describe('RunResults', () => {
  it('flags repetitions that disagree by more than the threshold as noisy', () => {
    renderResult({
      aggregate: { count: 3, qps: { median: 100000, min: 90000, max: 115000, spread: 0.25 }, noisy: true, noisy_threshold: 0.1 },
    });
    expect(screen.getByTestId('run-repetitions')).toHaveTextContent('median of 3: 100,000 req/s (from 90,000 to 115,000), spread 25 %');
    expect(screen.getByTestId('run-noisy')).toHaveTextContent('more than 10 %');
  });

  it('shows a quiet set of repetitions without the flag, and one run without the row', () => {
    renderResult({
      aggregate: { count: 3, qps: { median: 100000, min: 99000, max: 101000, spread: 0.02 }, noisy: false, noisy_threshold: 0.1 },
    });
    expect(screen.getByTestId('run-repetitions')).toHaveTextContent('spread 2 %');
    expect(screen.queryByTestId('run-noisy')).not.toBeInTheDocument();
  });

  it('leaves the repetitions row out for a single run', () => {
    renderResult({ aggregate: { count: 1, qps: { median: 1, min: 1, max: 1, spread: 0 }, noisy: false, noisy_threshold: 0.1 } });
    expect(screen.queryByTestId('run-repetitions')).not.toBeInTheDocument();
  });

  it('shows this host’s run-to-run spread beside a run, and what a second run could do', () => {
    // ±t·sigma·√2 with t = 2.2622 at 9 degrees of freedom: 2.2622 × 3.1 % × 1.414 = 9.9 %
    renderResult({ host_noise: noise31 });
    expect(screen.getByTestId('run-host-noise')).toHaveTextContent(
      'run to run ±3.1 % (from 12 separate identical runs): a second run of the same could land ±9.9 % away with nothing changed',
    );
  });

  it('has no spread row where the host’s noise was not yet measured', () => {
    renderResult({ host_noise: null });
    expect(screen.queryByTestId('run-host-noise')).not.toBeInTheDocument();
  });

  it('explains an open-loop result: target, achieved, actual latency and send lag', () => {
    renderResult(
      {},
      {
        open_loop: {
          target_qps: 50000,
          achieved_qps: 49900,
          achieved_fraction: 0.998,
          short_of_target: false,
          latency_actual_us: digest,
          send_lag_us: { ...digest, p99: 12 },
        },
      },
    );
    const row = screen.getByTestId('run-open-loop');
    expect(row).toHaveTextContent('target 50,000 req/s, achieved 49,900 (99.8 %)');
    expect(row).toHaveTextContent('from the actual send p99 is 700 µs');
    expect(row).toHaveTextContent('p99 12 µs late');
  });

  it('says a quiet run is stable, with the CPU share others took and the drift check', () => {
    renderResult({});
    const row = screen.getByTestId('run-stability');
    expect(row).toHaveTextContent(/^stable/);
    expect(row).toHaveClass('run-results__ok');
    expect(screen.getByTestId('run-stability-figures')).toHaveTextContent(
      "others took 2 % of the server's CPU 0 (limit 10 %) and 3 % of the load generator's CPU 1 (limit 10 %) · QPS within 30 % of its median (120,000 req/s) in all 5 intervals",
    );
  });

  it('shows "unstable" with its reason beside a valid verdict, as invalid is shown', () => {
    const reason =
      "other processes used 38% of the server's CPU 0 while it was measured (limit 10%): the figures are lower than this server can do";
    renderResult({
      stable: false,
      unstable_reason: reason,
      interference: { ...doneData.interference, server: { ...doneData.interference.server, others: 0.38, interference: 0.38 } },
      drift: { ...doneData.drift, drifted: [{ t_s: 4.3, qps: 37000, departure: -0.69 }] },
    });
    expect(screen.getByTestId('run-validity')).toHaveTextContent('valid');
    const row = screen.getByTestId('run-stability');
    expect(row).toHaveTextContent(`unstable: ${reason}`);
    expect(row).toHaveClass('run-results__bad');
    expect(screen.getByTestId('run-stability-figures')).toHaveTextContent("38 % of the server's CPU 0");
    expect(screen.getByTestId('run-stability-figures')).toHaveTextContent('in 1 of 5 intervals: 37,000 at 4.3 s');
  });

  it('has no stability row for a result recorded before the runner checked it', () => {
    renderResult({ stable: undefined, unstable_reason: undefined, interference: undefined, drift: undefined });
    expect(screen.queryByTestId('run-stability')).not.toBeInTheDocument();
  });

  it('says when the load generator, not the server, set the pace', () => {
    const reason = 'the load generator used 97% of its CPU 1 and the server only 72% of its CPU 0';
    renderResult({ client: { cpu: 0.97, bound: true, reason, engine: 'epoll' } });
    expect(screen.getByTestId('run-client')).toHaveTextContent(`client-bound: ${reason}`);
    expect(screen.getByTestId('run-client')).toHaveClass('run-results__bad');
  });

  it('gives the load generator its engine and its CPU use', () => {
    renderResult({ client: { cpu: 0.634, bound: false, reason: null, engine: 'io_uring' } });
    expect(screen.getByTestId('run-client')).toHaveTextContent('io_uring engine · 63.4 % of its CPUs');
    expect(screen.getByTestId('run-client')).not.toHaveClass('run-results__bad');
  });

  it('lists the syscall profile per request, with the failed share where it was counted', () => {
    renderResult({
      syscalls: {
        method: 'perf',
        refused: null,
        requests: 100000,
        calls_per_request: 2.5,
        rows: [
          { syscall: 'read', calls: 200000, errors: 100000, per_request: 2 },
          { syscall: 'epoll_wait', calls: 50000, errors: null, per_request: 0.5 },
        ],
      },
    });
    expect(screen.getByTestId('run-syscalls')).toHaveTextContent(
      '2.50 per request (100,000 requests, counted by perf\'s tracepoints; they slow a server that forks or starts a thread per connection): read 2.00 (50 % failed) · epoll_wait 0.50',
    );
  });

  it('says why a host would not count system calls, with no figure', () => {
    renderResult({
      syscalls: {
        method: 'perf',
        refused: 'the counter did not start: no tracefs',
        requests: null,
        calls_per_request: null,
        rows: [],
      },
    });
    expect(screen.getByTestId('run-syscalls')).toHaveTextContent('Not counted: the counter did not start: no tracefs');
  });

  it('says what each memory figure measures, that CPU is per core, and counts in the right number', () => {
    renderResult({
      server: {
        cpu_percent_mean: 180,
        memory_peak_bytes: Math.round(1.2 * 2 ** 20),
        pids_peak: 1,
        profile: { threads_peak: 1, rss_mean_bytes: Math.round(1.7 * 2 ** 20) },
      },
    });
    const table = screen.getByTestId('run-results');
    expect(table).toHaveTextContent('180 % of one core, mean while measuring');
    const memory = screen.getByTestId('run-memory');
    expect(memory).toHaveTextContent("container peak 1.2 MiB (what the kernel charged the server's container");
    expect(memory).toHaveTextContent("resident 1.7 MiB (the server processes' RSS added up, mean while measuring");
    expect(table).toHaveTextContent('1 process or thread at peak · 1 thread');
    expect(table).not.toHaveTextContent('1 threads');
  });

  it('keeps a long invalid-run reason to a line that opens to the whole', () => {
    const reason = `the server exited with code 139 before the load ended. ${'segfault at 0 ip 0000 sp 0000 error 4\n'.repeat(20)}`;
    renderResult({ valid: false, invalid_reason: reason });
    const cell = screen.getByTestId('run-validity');
    const summary = within(cell).getByText(/the server exited with code 139 before the load ended\. …/);
    expect(summary.closest('details')).not.toHaveAttribute('open');
    expect(cell.querySelector('.clamped-note__full')).toHaveTextContent('segfault at 0 ip');
  });

  it('puts the reference in a column of its own beside the live run', () => {
    const live = doneEventSchema.parse(doneData);
    const recorded = doneEventSchema.parse({ ...doneData, valid: false, invalid_reason: 'too many errors' });
    render(
      <RunResults
        columns={[
          { label: 'your run', result: live },
          { label: 'reference (recorded 2026-11-22)', result: recorded, reference: true },
        ]}
      />,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['your run', 'reference (recorded 2026-11-22)']);
    expect(screen.getByTestId('run-validity')).toHaveTextContent('valid');
    expect(screen.getByTestId('run-validity-reference')).toHaveTextContent('invalid: too many errors');
  });
});
