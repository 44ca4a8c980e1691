import { render, screen, within } from '@testing-library/react';

import type { Server } from '@/lib/api-schemas';

import { ExperimentParams } from './experiment-params';

const knobs = [
  { name: 'stack_kib', label: 'thread stack', flag: '--stack-kib', type: 'int', min: 64, max: 65536, default: 8192, unit: 'KiB', help: 'h' },
  { name: 'sqpoll', label: 'SQPOLL', flag: '--sqpoll', type: 'bool', default: false, help: 'h' },
  { name: 'threads', label: 'pool threads', flag: '--threads', type: 'int', min: 1, max: 1024, default: 16, unit: 'threads', help: 'h' },
] as const;
const threaded = { id: 'c-threaded', title: 'thread per connection', knobs } as unknown as Server;

function rows(): [string, string][] {
  return within(screen.getByTestId('experiment-params'))
    .getAllByRole('term')
    .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? '']);
}

describe('ExperimentParams', () => {
  it('lists each parameter once and knobs by their label, in their unit', () => {
    render(
      <ExperimentParams
        request={{
          server: 'c-threaded',
          connections: 100,
          new_connection_per_request: true,
          knobs: { stack_kib: 8192, sqpoll: true, threads: 1 },
        }}
        servers={[threaded]}
      />,
    );
    expect(rows()).toEqual([
      ['server', 'thread per connection (c-threaded)'],
      ['connections', '100, a new one per request'],
      ['thread stack', '8,192 KiB'],
      ['SQPOLL', 'on'],
      ['pool threads', '1 thread'],
    ]);
  });

  it('lists a series: its servers, the values varied, and each server’s own knobs by server', () => {
    render(
      <ExperimentParams
        request={{
          servers: ['c-threaded', 'c-poll'],
          vary: 'connections',
          values: [10, 1000],
          base: { duration_s: 5 },
          server_knobs: { 'c-threaded': { stack_kib: 256 } },
        }}
        servers={[threaded]}
      />,
    );
    expect(rows()).toEqual([
      ['servers', 'thread per connection (c-threaded), c-poll'],
      ['connections', '10, 1,000'],
      ['duration', '5 s'],
      ['thread stack (c-threaded)', '256 KiB'],
    ]);
  });

  it('shows a series of one value as that value, not as a varied one', () => {
    render(<ExperimentParams request={{ servers: ['c-poll', 'c-epoll'], vary: 'connections', values: [500], base: {} }} servers={[]} />);
    expect(rows()).toEqual([
      ['servers', 'c-poll, c-epoll'],
      ['connections', '500'],
    ]);
  });
});
