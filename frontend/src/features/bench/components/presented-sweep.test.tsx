import { act, screen, within } from '@testing-library/react';

import type { Sweep, SweepPoint } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aSweep } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { PresentedSweep } from './presented-sweep';

function point(server: string, value: number, status: SweepPoint['status'], qps: number | null = null): SweepPoint {
  return { server, value, run_id: `${server}-${value}`, status, reason: null, valid: status === 'done', qps, p50_us: 80, p99_us: 300 };
}

const request = { servers: ['c-poll', 'c-epoll'], vary: 'idle_connections' as const, values: [0, 16000], base: { connections: 10 } };

function table(points: SweepPoint[], finished = false): Sweep {
  return aSweep({ request, finished, points, memory_per_connection: { 'c-poll': 2048, 'c-epoll': null } });
}

const plotted = (testId: string) => screen.getByTestId(testId).getAttribute('data-points');

describe('PresentedSweep', () => {
  beforeEach(() => {
    mockFetch({});
  });

  it('draws a running series from its table, with how far it is', () => {
    renderWithProviders(
      <PresentedSweep
        sweep={table([point('c-poll', 0, 'done', 120000), point('c-epoll', 0, 'running'), point('c-poll', 16000, 'queued'), point('c-epoll', 16000, 'queued')])}
      />,
    );
    expect(screen.getByTestId('series-state')).toHaveTextContent('1 of 4 points done · 1 running · 2 queued');
    expect(screen.getByTestId('presented-sweep')).toHaveTextContent('Series · c-poll vs c-epoll');
    expect(plotted('series-qps-chart')).toBe('1');
    expect(plotted('series-p99-chart')).toBe('1');
    const rows = within(screen.getByTestId('series-table')).getAllByRole('row');
    expect(rows).toHaveLength(5);
    expect(rows[2]).toHaveTextContent('running');
    expect(screen.getByRole('columnheader', { name: 'idle connections' })).toBeInTheDocument();
  });

  it('draws the final table as the series widget does', () => {
    const points = [point('c-poll', 0, 'done', 120000), point('c-epoll', 0, 'done', 125000), point('c-poll', 16000, 'done', 30000), point('c-epoll', 16000, 'done', 124000)];
    const { rerender } = renderWithProviders(<PresentedSweep sweep={table(points.slice(0, 2))} />);
    rerender(<PresentedSweep sweep={table(points, true)} />);
    expect(screen.getByTestId('series-state')).toHaveTextContent('done');
    expect(plotted('series-qps-chart')).toBe('4');
    expect(screen.getByTestId('memory-per-connection')).toHaveTextContent('c-poll 2 KiB');
  });

  it('draws calls per request beside throughput for a series that counts system calls', () => {
    const counted: Sweep = {
      ...table([{ ...point('c-poll', 100, 'done', 13000), calls_per_request: 2.02 }], true),
      request: { servers: ['c-poll'], vary: 'connections', values: [100], base: { profile: 'syscalls' } },
    };
    renderWithProviders(<PresentedSweep sweep={counted} />);
    expect(plotted('series-syscalls-chart')).toBe('1');
    expect(plotted('series-qps-chart')).toBe('1');
  });

  it('says how far the series is, and heads its table, in Chinese once the language is switched', async () => {
    renderWithProviders(
      <PresentedSweep
        sweep={table([point('c-poll', 0, 'done', 120000), point('c-epoll', 0, 'running'), point('c-poll', 16000, 'queued'), point('c-epoll', 16000, 'queued')])}
      />,
    );
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(screen.getByTestId('series-state')).toHaveTextContent('4 个数据点已完成 1 个 · 1 个运行中 · 2 个排队中');
    expect(screen.getByTestId('presented-sweep')).toHaveTextContent('扫描实验 · c-poll 对比 c-epoll');
    expect(screen.getByRole('columnheader', { name: '空闲连接数' })).toBeInTheDocument();
    const rows = within(screen.getByTestId('series-table')).getAllByRole('row');
    expect(rows[2]).toHaveTextContent('运行中');
    expect(screen.getByTestId('memory-per-connection')).toHaveTextContent('每增加一个连接的常驻内存：c-poll 2 KiB');
  });
});
