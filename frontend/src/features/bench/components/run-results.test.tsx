import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { doneEventSchema } from '@/lib/api-schemas';
import { doneData } from '@/testing/fixtures';

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

  it('lists the syscall profile per request', () => {
    renderResult({
      syscalls: {
        requests: 100000,
        calls_per_request: 2.5,
        rows: [
          { syscall: 'write', calls: 100000, errors: 0, per_request: 1 },
          { syscall: 'epoll_wait', calls: 50000, errors: 0, per_request: 0.5 },
        ],
      },
    });
    expect(screen.getByTestId('run-syscalls')).toHaveTextContent('2.50 per request (100,000 requests): write 1.00 · epoll_wait 0.50');
    // strace slowed the server: its throughput must not read as a speed figure.
    expect(screen.getByTestId('traced-note')).toHaveTextContent('not a speed figure');
  });
});
