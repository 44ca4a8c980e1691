import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { aPoint, noise31 } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';

import { SeriesTable } from './series-table';

describe('SeriesTable', () => {
  it('shows a single run’s 95 % range from its host’s noise, and a repeated point’s spread', () => {
    const points = [
      // ±t·sigma with t = 2.2622 at 9 degrees of freedom: 2.2622 × 3.1 % = 7.0 %, shown as 7 %
      aPoint({ server: 'c-epoll', value: 100, qps: 150_000, host_noise: noise31 }),
      aPoint({ server: 'c-epoll', value: 1000, qps: 140_000, spread: 0.04, host_noise: noise31 }),
      aPoint({ server: 'c-epoll', value: 10000, qps: 120_000, host_noise: null }),
    ];
    renderWithProviders(<SeriesTable points={points} vary="connections" memoryPerConnection={{}} />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByTestId('point-noise')).toHaveTextContent('±7 %');
    expect(rows[1]).toHaveTextContent('spread 4 %');
    expect(within(rows[1]!).queryByTestId('point-noise')).toBeNull();
    expect(within(rows[2]!).queryByTestId('point-noise')).toBeNull();
  });
});
