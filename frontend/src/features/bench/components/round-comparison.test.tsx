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

describe('RoundComparison', () => {
  it('draws each entry’s median with its range, says the verdict, and lists every round', () => {
    renderWithProviders(<RoundComparison sweep={sweep} points={points} stem="s1" />);
    const qps = screen.getByTestId('comparison-qps-chart');
    expect(qps).toHaveAttribute('data-points', '2');
    expect(qps.dataset.series).toBe('c-epoll (original): 52,000 (50,000–54,000)|c-epoll (your edit): 61,000 (60,000–62,000)');
    expect(JSON.parse(within(qps).getByTestId('chart-stub').dataset.datasets ?? '[]')).toEqual([
      { id: 'range', n: 2 },
      { id: 'median', n: 2 },
    ]);
    expect(screen.getByTestId('comparison-p99-chart')).toHaveAttribute('data-points', '2');
    expect(screen.getByTestId('comparison-verdict')).toHaveTextContent(
      'c-epoll (your edit): 17 % more requests per second and a 21 % lower p99 than c-epoll (original), medians of 2 rounds.',
    );
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
