import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Stacks } from '@/lib/api-schemas';
import { aPoint, aRun, doneData } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { ProfileComparison } from './profile-comparison';

function cpuProfile(stacks: Stacks['stacks'], softirq: number): Stacks {
  return {
    mode: 'cpu',
    refused: null,
    unit: 'samples',
    frequency_hz: 499,
    window_s: 5,
    total: stacks.reduce((sum, s) => sum + s.weight, 0),
    merged: 0,
    stacks,
    shares: { user: 0.05, syscalls: 0.5 - softirq, softirq, other_kernel: 0.05, idle: 0.35, other_work: 0.05 },
    offcpu: null,
  };
}

const EPOLL = cpuProfile(
  [
    { stack: 'srv;main;epoll_wait;do_epoll_wait_[k]', weight: 50 },
    { stack: 'srv;main;read;tcp_recvmsg_[k]', weight: 50 },
  ],
  0.2,
);
const URING = cpuProfile(
  [
    { stack: 'srv;main;epoll_wait;do_epoll_wait_[k]', weight: 50 },
    { stack: 'srv;main;io_uring_enter;io_submit_sqes_[k]', weight: 150 },
  ],
  0.3,
);
const SWEEP = { servers: ['c-epoll', 'c-io-uring'], vary: 'connections' as const, values: [100], base: { profile: 'cpu' as const } };
const POINTS = [aPoint({ server: 'c-epoll', value: 100, run_id: 'r-a' }), aPoint({ server: 'c-io-uring', value: 100, run_id: 'r-b' })];

function api() {
  mockFetch({
    'GET /api/runs/r-a': aRun({ id: 'r-a', result: { ...doneData, stacks: EPOLL } }),
    'GET /api/runs/r-b': aRun({ id: 'r-b', server: 'c-io-uring', result: { ...doneData, stacks: URING } }),
  });
}

function frame(name: string): Element | undefined {
  return Array.from(screen.getByTestId('flame-graph').querySelectorAll('g.frame')).find((g) => g.getAttribute('name') === name);
}

describe('ProfileComparison', () => {
  it('draws the second run against the first, each frame with its change of share', async () => {
    api();
    renderWithProviders(<ProfileComparison sweep={SWEEP} points={POINTS} stem="s1" />);
    const section = screen.getByTestId('profile-comparison');
    expect(within(section).getByRole('heading', { name: 'Where the time moved' })).toBeInTheDocument();
    await screen.findByTestId('flame-graph');
    await waitFor(() => {
      expect(frame('io_uring_enter')).toBeDefined();
    });
    // a quarter of c-io-uring's samples in epoll_wait against half of c-epoll's: it shrank
    expect(frame('epoll_wait')?.querySelector('title')?.textContent).toBe('epoll_wait: 25 % of this run\'s time (−25 % against c-epoll)');
    expect(frame('io_uring_enter')?.querySelector('title')?.textContent).toBe('io_uring_enter: 75 % of this run\'s time (+75 % against c-epoll)');
    expect(frame('read')).toBeUndefined(); // only c-epoll's: drawn once swapped
    expect(screen.getAllByTestId('profile-shares')).toHaveLength(2);
    // by function, wherever called: io_uring_enter gained three quarters, read lost a half
    const rows = within(screen.getByTestId('profile-changes')).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toContain('io_uring_enter0 %75 %+75 %');
    expect(rows).toContain('read50 %0 %−50 %');
    expect(rows).toContain('io_submit_sqes (kernel)0 %75 %+75 %');
  });

  it('swaps the two, drawing what only the first had', async () => {
    api();
    renderWithProviders(<ProfileComparison sweep={SWEEP} points={POINTS} stem="s1" />);
    await screen.findByTestId('flame-graph');
    await userEvent.click(screen.getByRole('button', { name: 'Swap the two' }));
    expect(screen.getByRole('combobox', { name: 'Against' })).toHaveDisplayValue('c-io-uring');
    await waitFor(() => {
      expect(frame('read')?.querySelector('title')?.textContent).toBe('read: 50 % of this run\'s time (+50 % against c-io-uring)');
    });
  });

  it('draws a recording from the profiles it keeps, asking for no run', async () => {
    const { calls } = mockFetch({});
    renderWithProviders(<ProfileComparison sweep={SWEEP} points={POINTS} stem="s1" recorded={{ 'r-a': EPOLL, 'r-b': URING }} />);
    await screen.findByTestId('flame-graph');
    await waitFor(() => {
      expect(frame('io_uring_enter')).toBeDefined();
    });
    expect(calls).toEqual([]);
  });
});
