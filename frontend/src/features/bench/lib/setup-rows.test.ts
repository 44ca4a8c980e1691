import type { Server } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';

import { setupRows } from './setup-rows';

beforeAll(async () => {
  await i18next.loadLanguages('zh');
  await i18next.loadNamespaces('bench');
});

const zh = i18next.getFixedT('zh', 'bench');

/** Two servers with a knob of one name that means a thread for one and a process for the other. */
const catalog = [
  { id: 'c-epoll-reuseport', title: 'SO_REUSEPORT', knobs: [{ name: 'workers', label: 'event loops', flag: '--workers', type: 'int', default: 0, unit: 'threads', help: 'h' }] },
  {
    id: 'c-preforked',
    title: 'preforked',
    knobs: [
      { name: 'workers', label: 'event loops', flag: '--workers', type: 'int', default: 8, unit: 'processes', help: 'h' },
      { name: 'buffer_bytes', label: 'read buffer', flag: '--buffer-bytes', type: 'int', default: 16384, unit: 'bytes', help: 'h' },
    ],
  },
] as unknown as Server[];

describe('setupRows', () => {
  it('names a run’s knobs in the reader’s language, as its own server’s', () => {
    expect(setupRows({ server: 'c-preforked', knobs: { workers: 4, buffer_bytes: 4096 } }, catalog, zh).slice(1)).toEqual([
      ['工作进程数', '4 个进程'],
      ['读缓冲区', '4 KiB'],
    ]);
  });

  it('names a series’ knobs of one server with that server', () => {
    const rows = setupRows({ servers: ['c-epoll-reuseport', 'c-preforked'], vary: 'connections', values: [10, 100], server_knobs: { 'c-epoll-reuseport': { workers: 2 } } }, catalog, zh);
    expect(rows.at(-1)).toEqual(['事件循环数（c-epoll-reuseport）', '2 个线程']);
  });
});
