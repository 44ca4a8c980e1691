import { ApiError } from '@/lib/api-client';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';

import { comparisonRequest, createVariant } from './variants';

const created = { id: 'v1', check: { id: 'r1', status: 'queued', position: 1, wait_s: 3, held: false } };

describe('createVariant', () => {
  it('posts the server and the whole file', async () => {
    const { calls } = mockFetch({ 'POST /api/variants': reply(202, created) });
    expect(await createVariant('c-epoll', 'int main;\n')).toEqual(created);
    expect(calls[0]?.body).toEqual({ server: 'c-epoll', source: 'int main;\n' });
  });

  it('posts an exercise’s answer with its slug', async () => {
    const { calls } = mockFetch({ 'POST /api/variants': reply(202, created) });
    await createVariant('c-epoll', 'int main;\n', 'et-drain');
    expect(calls[0]?.body).toEqual({ server: 'c-epoll', source: 'int main;\n', exercise: 'et-drain' });
  });

  it('refuses with the server’s sentence and a 429’s Retry-After', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(new Response(JSON.stringify(problem('too-many-builds', { building: 3, most: 3 })), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '10' },
        })),
      ),
    );
    const refused = await createVariant('c-epoll', 'x').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 429,
      retryAfterS: 10,
      message: 'You already have 3 builds waiting or under way (at most 3); wait for one to finish.',
    });
  });

  it('refuses a 422 with its sentence', async () => {
    mockFetch({ 'POST /api/variants': reply(422, problem('server-not-editable', { server: 'rust-tokio' })) });
    await expect(createVariant('rust-tokio', 'x')).rejects.toMatchObject({
      status: 422,
      retryAfterS: null,
      message: 'Only the C servers can be edited, not rust-tokio.',
    });
  });
});

describe('comparisonRequest', () => {
  it('runs the original and the edit round by round', () => {
    const base = { protocol: 'echo' as const, connections: 20, duration_s: 2, warmup_s: 1, payload_bytes: 64 };
    expect(comparisonRequest('c-epoll', 'abc', 3, base)).toEqual({ servers: ['c-epoll', 'variant:abc'], vary: 'round', values: [1, 2, 3], base });
  });
});
