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
        experiment={{
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
});
