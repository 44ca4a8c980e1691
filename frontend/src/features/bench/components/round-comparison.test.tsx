import { screen, within } from '@testing-library/react';

import { aPoint } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';

import type { SweepRequest } from '../lib/experiment-block';

import { RoundComparison } from './round-comparison';

const edit = 'variant:0123456789abcdef0123456789abcdef';
// What the API will send for vary "round" (the generated contract may not list it yet).
const sweep = { servers: ['c-epoll', edit], vary: 'round', values: [1, 2], base: {} } as unknown as SweepRequest;
const points = [
  aPoint({ server: 'c-epoll', value: 1, qps: 50_000, p50_us: 100, p99_us: 900 }),
  aPoint({ server: edit, value: 1, qps: 60_000, p50_us: 90, p99_us: 700 }),
  aPoint({ server: 'c-epoll', value: 2, qps: 54_000, p50_us: 110, p99_us: 1000 }),
  aPoint({ server: edit, value: 2, qps: 62_000, p50_us: 95, p99_us: 800 }),
];

const interval = (estimate: number, low: number, high: number) => ({ estimate, low, high, level: 0.75, count: 2, method: 'median_order_statistics' as const });
const entries = [
  { server: 'c-epoll', qps: interval(52_000, 50_000, 54_000), p99_us: interval(950, 900, 1000) },
  { server: edit, qps: interval(61_000, 60_000, 62_000), p99_us: interval(750, 700, 800) },
];
const change = (estimate: number, low: number, high: number) => ({ estimate, low, high, level: 0.95, count: 2, method: 'paired_log_ratio_t' as const });
const verdicts = [
  { subject: edit, reference: 'c-epoll', metric: 'qps' as const, call: 'no_difference' as const, change: change(0.17, -0.04, 0.41) },
  { subject: edit, reference: 'c-epoll', metric: 'p99_us' as const, call: 'lower' as const, change: change(-0.21, -0.3, -0.12) },
];

describe('RoundComparison', () => {
  it('while rounds run: each entry’s median with its range so far, and no verdict yet', () => {
    renderWithProviders(<RoundComparison sweep={sweep} points={points.slice(0, 3)} entries={[]} verdicts={[]} finished={false} stem="s1" />);
    expect(screen.getByTestId('comparison-qps-chart').dataset.series).toBe('c-epoll (original): 52,000 (50,000–54,000)|c-epoll (your edit): 60,000');
    expect(screen.getByTestId('comparison-verdict')).toHaveAttribute('data-call', 'pending');
    expect(screen.getByTestId('comparison-verdict')).toHaveTextContent('The verdict comes once every round has run');
  });

  it('once every round has run and none undisturbed: says so instead of waiting for one', () => {
    // What the API sends when every round was flagged: each entry, with no figure to give.
    const disturbed = points.map((p) => ({ ...p, stable: false }));
    const none = sweep.servers.map((server) => ({ server, qps: null, p99_us: null }));
    renderWithProviders(<RoundComparison sweep={sweep} points={disturbed} entries={none} verdicts={[]} finished stem="s1" />);
    expect(screen.getByTestId('comparison-qps-chart')).toHaveTextContent('No round ran undisturbed, so there is nothing to draw');
    expect(screen.getByTestId('comparison-qps-chart')).not.toHaveTextContent('Waiting for the first finished round');
  });

  it('once every round has run: medians with their intervals, the verdict with its interval, and every round', () => {
    renderWithProviders(<RoundComparison sweep={sweep} points={points} entries={entries} verdicts={verdicts} finished stem="s1" />);
    const qps = screen.getByTestId('comparison-qps-chart');
    expect(qps).toHaveAttribute('data-points', '2');
    expect(qps.dataset.series).toBe('c-epoll (original): 52,000 (50,000–54,000)|c-epoll (your edit): 61,000 (60,000–62,000)');
    expect(JSON.parse(within(qps).getByTestId('chart-stub').dataset.datasets ?? '[]')).toEqual([
      { id: 'range', n: 2 },
      { id: 'median', n: 2 },
    ]);
    expect(screen.getByTestId('comparison-p99-chart')).toHaveAttribute('data-points', '2');
    const verdict = screen.getByTestId('comparison-verdict');
    expect(verdict).toHaveAttribute('data-call', 'no_difference');
    expect(verdict).toHaveTextContent(
      'c-epoll (your edit) against c-epoll (original): no difference in throughput this host can detect (±41 %); a p99 12 % to 30 % lower (95 % intervals over 2 rounds run undisturbed by both, pair by pair). A difference smaller than that interval cannot be seen here: more rounds narrow it.',
    );
    expect(screen.getByTestId('comparison-qps-chart')).toHaveTextContent('the 95 % interval of that median');
    const summary = screen.getByTestId('comparison-summary');
    expect(within(summary).getAllByRole('row').map((r) => r.textContent)).toContain('c-epoll (your edit)2 of 261,000 (60,000–62,000)750 µs (700 µs–800 µs)');
    const rounds = within(screen.getByTestId('comparison-rounds')).getAllByRole('row').slice(1);
    expect(rounds.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['1', '1', '2', '2']);
    expect(rounds.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'c-epoll (original)',
      'c-epoll (your edit)',
      'c-epoll (original)',
      'c-epoll (your edit)',
    ]);
  });
});
