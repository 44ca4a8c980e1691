import type { Server } from '@/lib/api-schemas';
import { servers } from '@/testing/fixtures';

import { editableServer } from './edit-link';

const rust: Server = { ...servers[0]!, id: 'rust-tokio', language: 'rust', source: 'servers/rust/src/bin/rust-tokio.rs' };
const catalog = [...servers, rust];

describe('editableServer', () => {
  it('finds the C server whose model file the path is', () => {
    expect(editableServer('servers/c/epoll.c', catalog)?.id).toBe('c-epoll');
    expect(editableServer('servers/c/poll.c', catalog)?.id).toBe('c-poll');
  });

  it('is null for a Rust server’s file, a shared module, or before the catalog has come', () => {
    expect(editableServer('servers/rust/src/bin/rust-tokio.rs', catalog)).toBeNull();
    expect(editableServer('servers/c/protocol.c', catalog)).toBeNull();
    expect(editableServer('servers/c/epoll.c', undefined)).toBeNull();
  });
});
