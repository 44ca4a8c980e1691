import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { Sweep, SweepPoint } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aProvenance, aRun, aSweep, doneData, servers } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { copiedMarkdown, sharedLink } from '@/testing/shared-result';

import { PresentedSweep } from './presented-sweep';

function point(server: string, value: number, status: SweepPoint['status'], qps: number | null = null): SweepPoint {
  return { server, value, run_id: `${server}-${value}`, status, reason: null, valid: status === 'done', qps, p50_us: 80, p99_us: 300 };
}

const request = { servers: ['c-poll', 'c-epoll'], vary: 'idle_connections' as const, values: [0, 16000], base: { connections: 10 } };

function table(points: SweepPoint[], finished = false): Sweep {
  return aSweep({ request, finished, points, memory_per_connection: { 'c-poll': 2048, 'c-epoll': null } });
}

/** The series as the follow panel draws it, titled as the instructor presents it. */
function presented(sweep: Sweep) {
  return <PresentedSweep sweep={sweep} title="poll against epoll, idle connections" />;
}

/** How many points a chart plots, once its code (loaded lazily) has drawn it. */
const plotted = async (testId: string) => (await screen.findByTestId(testId)).getAttribute('data-points');

describe('PresentedSweep', () => {
  beforeEach(() => {
    // The table draws it; where its first measured point ran, from that run's record.
    const measured = aRun({ id: 'c-poll-0', result: { ...doneData, provenance: aProvenance({ cpu_model: 'AMD EPYC 7B13', cpus: 2 }) } });
    mockFetch({ 'GET /api/servers': servers, 'GET /api/runs/c-poll-0': measured });
  });

  it('draws a running series from its table, with how far it is', async () => {
    renderWithProviders(
      presented(table([point('c-poll', 0, 'done', 120000), point('c-epoll', 0, 'running'), point('c-poll', 16000, 'queued'), point('c-epoll', 16000, 'queued')])),
    );
    expect(screen.getByTestId('series-state')).toHaveTextContent('1 of 4 points done · 1 running · 2 queued');
    expect(screen.getByTestId('presented-sweep')).toHaveTextContent('Series · c-poll vs c-epoll');
    expect(await plotted('series-qps-chart')).toBe('1');
    expect(await plotted('series-p99-chart')).toBe('1');
    const rows = within(screen.getByTestId('series-table')).getAllByRole('row');
    expect(rows).toHaveLength(5);
    expect(rows[2]).toHaveTextContent('running');
    expect(screen.getByRole('columnheader', { name: 'idle connections' })).toBeInTheDocument();
  });

  it('draws the final table as the series widget does', async () => {
    const points = [point('c-poll', 0, 'done', 120000), point('c-epoll', 0, 'done', 125000), point('c-poll', 16000, 'done', 30000), point('c-epoll', 16000, 'done', 124000)];
    const { rerender } = renderWithProviders(presented(table(points.slice(0, 2))));
    rerender(presented(table(points, true)));
    expect(screen.getByTestId('series-state')).toHaveTextContent('done');
    expect(await plotted('series-qps-chart')).toBe('4');
    expect(screen.getByTestId('memory-per-connection')).toHaveTextContent('c-poll 2 KiB');
  });

  it('shares the series by its permalink, and its exports say what it is: title, setup, legend, host, date', async () => {
    const user = userEvent.setup();
    const link = `${window.location.origin}${window.location.pathname}#/sweeps/s1`;
    renderWithProviders(presented(table([point('c-poll', 0, 'done', 120000), point('c-epoll', 0, 'done', 125000)])));
    expect(await sharedLink(user)).toEqual({ copied: link, shown: link });

    // Where it ran is its first measured point's, asked for once that point is done.
    const markdown = await copiedMarkdown(user, 'Export the series', '- CPU: AMD EPYC 7B13, 2 CPUs');
    expect(markdown.startsWith('**poll against epoll, idle connections**\n\n- Servers: poll() event loop (c-poll), epoll, level-triggered (c-epoll)\n')).toBe(true);
    expect(markdown).toContain('- Idle connections: 0, 16,000\n- Connections: 10\n- Legend: c-poll, c-epoll\n');
    expect(markdown).toMatch(new RegExp(`\\(2026-11-25T10:01:00\\+00:00\\)\\n- ${link}\\n`));
  });

  it('draws calls per request beside throughput for a series that counts system calls', async () => {
    const counted: Sweep = {
      ...table([{ ...point('c-poll', 100, 'done', 13000), calls_per_request: 2.02 }], true),
      request: { servers: ['c-poll'], vary: 'connections', values: [100], base: { profile: 'syscalls' } },
    };
    renderWithProviders(presented(counted));
    expect(await plotted('series-syscalls-chart')).toBe('1');
    expect(await plotted('series-qps-chart')).toBe('1');
  });

  it('says how far the series is, and heads its table, in Chinese once the language is switched', async () => {
    renderWithProviders(
      presented(table([point('c-poll', 0, 'done', 120000), point('c-epoll', 0, 'running'), point('c-poll', 16000, 'queued'), point('c-epoll', 16000, 'queued')])),
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
