import { z } from 'zod';

import { mockFetch, reply } from '@/testing/mock-fetch';
import { invalidInput, problem } from '@/testing/problem';

import { ApiError, apiRequest, describeErrorBody, retryAfterSeconds } from './api-client';
import { i18next } from './i18n';

// A 422 of POST /api/runs: more connections than the API takes at all.
const tooManyConnections = invalidInput({
  type: 'less_than_equal',
  loc: ['body', 'connections'],
  msg: 'Input should be less than or equal to 19000',
  input: 50000,
  ctx: { le: 19000 },
});

describe('describeErrorBody', () => {
  it('words a refusal as the API documents it (Problem) from its code and params', () => {
    const unknown = problem('unknown-server', { server: 'nope', known: 'c-select, c-epoll' });
    expect(describeErrorBody(unknown)).toBe('There is no server “nope”; choose one of c-select, c-epoll.');
    expect(describeErrorBody(tooManyConnections)).toBe('connections: must be at most 19000 (got 50000)');
  });

  it('reads nothing from a body that is not a Problem: no code, or no detail', () => {
    expect(describeErrorBody({ detail: 'unknown server "nope"' })).toBeNull();
    expect(describeErrorBody({ ...problem('wrong-login'), code: undefined })).toBeNull();
    expect(describeErrorBody({ ...problem('wrong-login'), detail: '' })).toBeNull();
    expect(describeErrorBody('oops')).toBeNull();
    expect(describeErrorBody(undefined)).toBeNull();
  });
});

describe('apiRequest', () => {
  const schema = z.object({ id: z.string() });

  it('returns validated data', async () => {
    mockFetch({ 'GET /api/thing': { id: 'a' } });
    await expect(apiRequest('/thing', schema)).resolves.toEqual({ id: 'a' });
  });

  it('turns a 422 into an ApiError carrying the refusal in words', async () => {
    mockFetch({ 'POST /api/runs': reply(422, tooManyConnections) });
    const error = await apiRequest('/runs', schema, { method: 'POST', body: { connections: 50000 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toBe('connections: must be at most 19000 (got 50000)');
  });

  it('says the status when a refusal is not a Problem (a body without a code)', async () => {
    mockFetch({ 'POST /api/runs': reply(422, { detail: 'connections out of range' }) });
    await expect(apiRequest('/runs', schema, { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 422,
      message: 'POST /api/runs answered 422',
    });
  });

  it('carries a 429’s Retry-After in seconds, and none when the answer has none', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify(problem('too-many-builds', { building: 3, most: 3 })), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '10' },
          }),
        ),
      ),
    );
    const busy = await apiRequest('/variants', schema, { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ApiError);
    expect(busy).toMatchObject({
      status: 429,
      retryAfterS: 10,
      message: 'You already have 3 builds waiting or under way (at most 3); wait for one to finish.',
    });

    mockFetch({ 'POST /api/runs': reply(422, tooManyConnections) });
    await expect(apiRequest('/runs', schema, { method: 'POST', body: {} })).rejects.toMatchObject({ status: 422, retryAfterS: null });
  });

  it('rejects an answer of the wrong shape', async () => {
    mockFetch({ 'GET /api/thing': { id: 3 } });
    await expect(apiRequest('/thing', schema)).rejects.toThrow(/unexpected shape/);
  });

  it('sends PUT with a JSON body, and takes a 204 for an answer where nothing is expected', async () => {
    const { calls } = mockFetch({ 'PUT /api/thing': { id: 'b' }, 'DELETE /api/thing': reply(204, null) });
    await expect(apiRequest('/thing', schema, { method: 'PUT', body: { id: 'b' } })).resolves.toEqual({ id: 'b' });
    expect(calls[0]).toMatchObject({ method: 'PUT', body: { id: 'b' } });
    await expect(apiRequest('/thing', z.undefined(), { method: 'DELETE' })).resolves.toBeUndefined();
    await expect(apiRequest('/thing', schema, { method: 'DELETE' })).rejects.toThrow(/unexpected shape/);
  });

  it('reports an unreachable backend', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiRequest('/thing', schema)).rejects.toThrow(/Cannot reach the backend/);
  });

  it('says what went wrong in Chinese, the API’s refusals too', async () => {
    await i18next.changeLanguage('zh');
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiRequest('/thing', schema)).rejects.toThrow('无法连接后端（GET /api/thing）。');
    mockFetch({
      'GET /api/thing': reply(500, 'oops'),
      'POST /api/runs': reply(422, tooManyConnections),
      'POST /api/auth/login': reply(401, problem('wrong-login')),
    });
    await expect(apiRequest('/thing', schema)).rejects.toThrow(/^GET \/api\/thing 返回了 500/);
    await expect(apiRequest('/runs', schema, { method: 'POST', body: { connections: 50000 } })).rejects.toThrow(
      'connections：至多为 19000（收到的是 50000）',
    );
    await expect(apiRequest('/auth/login', schema, { method: 'POST', body: {} })).rejects.toThrow('名字或密码错误。');
  });
});

describe('retryAfterSeconds', () => {
  it('reads whole seconds only', () => {
    expect(retryAfterSeconds('10')).toBe(10);
    expect(retryAfterSeconds(' 3 ')).toBe(3);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('1.5')).toBeNull();
    expect(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT')).toBeNull();
  });
});
