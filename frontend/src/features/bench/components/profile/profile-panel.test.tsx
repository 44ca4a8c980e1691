import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Stacks } from '@/lib/api-schemas';
import { captureDownloads, read } from '@/testing/downloads';
import { renderWithProviders } from '@/testing/render';

import { ProfilePanel } from './profile-panel';

const CPU: Stacks = {
  mode: 'cpu',
  refused: null,
  unit: 'samples',
  frequency_hz: 499,
  window_s: 5,
  total: 10,
  merged: 0,
  stacks: [
    { stack: 'c-epoll;main;epoll_wait;do_epoll_wait_[k]', weight: 4 },
    { stack: 'c-epoll;main;loop_send;write;tcp_sendmsg_[k];net_rx_action_[k]', weight: 6 },
  ],
  shares: { user: 0.05, syscalls: 0.3, softirq: 0.334, other_kernel: 0.016, idle: 0.25, other_work: 0.05 },
  offcpu: null,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ProfilePanel', () => {
  it('writes each share of the CPU time and draws the flame graph with its frames', async () => {
    renderWithProviders(<ProfilePanel stacks={CPU} stem="c-epoll" />);
    expect(screen.getByRole('heading', { name: "Where the server's CPU time went" })).toBeInTheDocument();
    const shares = screen.getByTestId('profile-shares');
    expect(shares).toHaveTextContent('network softirq (kernel) 33.4 %');
    expect(within(shares).getByRole('img')).toHaveAccessibleName(/the server's code 5 %, system calls \(kernel\) 30 %/);
    const graph = await screen.findByTestId('flame-graph');
    // every frame named, the kernel's without perf's mark, and a tooltip with its share
    const frames = Array.from(graph.querySelectorAll('g.frame'));
    const names = frames.map((g) => g.getAttribute('name'));
    expect(names).toEqual(expect.arrayContaining(['all', 'c-epoll', 'main', 'loop_send', 'tcp_sendmsg', 'net_rx_action']));
    const sending = frames.find((g) => g.getAttribute('name') === 'loop_send');
    expect(sending?.querySelector('title')?.textContent).toBe('loop_send: 60 % of the samples (6 samples)');
    expect(screen.getByText(/compare this run's figures only with runs profiled the same way/)).toBeInTheDocument();
  });

  it('says how long the threads were off the CPU for an offcpu profile', async () => {
    const offcpu: Stacks = {
      ...CPU,
      mode: 'offcpu',
      unit: 'microseconds',
      frequency_hz: null,
      shares: null,
      total: 2_000_000,
      stacks: [{ stack: 'c-threaded;read;schedule_[k];[blocked]', weight: 2_000_000 }],
      offcpu: { blocked_s: 1.9, runnable_s: 0.1, switches: 400, switches_per_request: 2 },
    };
    renderWithProviders(<ProfilePanel stacks={offcpu} stem="c-threaded" />);
    expect(screen.getByTestId('profile-offcpu')).toHaveTextContent('1.90 s blocked');
    expect(screen.getByTestId('profile-offcpu')).toHaveTextContent('2.00 context switches per request');
    const graph = await screen.findByTestId('flame-graph');
    const read = Array.from(graph.querySelectorAll('g.frame')).find((g) => g.getAttribute('name') === 'read');
    expect(read?.querySelector('title')?.textContent).toBe('read: 100 % of the time off the CPU (2.000 s)');
  });

  it('says why where the host would not profile, and draws nothing', () => {
    renderWithProviders(<ProfilePanel stacks={{ ...CPU, refused: 'perf did not start', stacks: [], shares: null }} stem="c-epoll" />);
    expect(screen.getByTestId('profile-refused')).toHaveTextContent('Not profiled: perf did not start');
    expect(screen.queryByTestId('flame-graph')).not.toBeInTheDocument();
  });

  it('saves the stacks as folded text, the format flamegraph.pl reads', async () => {
    const saved = captureDownloads();
    renderWithProviders(<ProfilePanel stacks={CPU} stem="c-epoll" />);
    await screen.findByTestId('flame-graph');
    await userEvent.click(screen.getByRole('button', { name: 'Stacks as folded text' }));
    expect(saved.map((file) => file.name)).toEqual(['c-epoll-cpu-stacks.folded']);
    expect(await read(saved[0]?.blob)).toBe(
      'c-epoll;main;epoll_wait;do_epoll_wait_[k] 4\nc-epoll;main;loop_send;write;tcp_sendmsg_[k];net_rx_action_[k] 6\n',
    );
  });

  it('saves the drawn flame graph as an SVG that says what it shows', async () => {
    const saved = captureDownloads();
    renderWithProviders(<ProfilePanel stacks={CPU} stem="c-epoll" />);
    await screen.findByTestId('flame-graph');
    const button = screen.getByRole('button', { name: 'Flame graph as SVG' });
    await waitFor(() => {
      expect(button).toBeEnabled();
    });
    await userEvent.click(button);
    const svg = await read(saved[0]?.blob);
    expect(saved[0]?.name).toBe('c-epoll-cpu-flame-graph.svg');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('name="loop_send"');
  });
});
