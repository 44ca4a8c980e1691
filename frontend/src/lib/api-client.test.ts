import { z } from 'zod';

import { mockFetch, reply } from '@/testing/mock-fetch';

import { ApiError, apiRequest, describeErrorBody, retryAfterSeconds } from './api-client';
import { i18next } from './i18n';

describe('describeErrorBody', () => {
  it("reads a refusal's detail as the API documents it (Problem)", () => {
    expect(describeErrorBody({ detail: 'unknown server "nope"' })).toBe('unknown server "nope"');
    const invalid = { detail: 'connections: Input should be less than 20000', errors: [{ loc: ['body', 'connections'] }] };
    expect(describeErrorBody(invalid)).toBe('connections: Input should be less than 20000');
    expect(describeErrorBody({ detail: '' })).toBeNull();
    expect(describeErrorBody('oops')).toBeNull();
  });
});

describe('apiRequest', () => {
  const schema = z.object({ id: z.string() });

  it('returns validated data', async () => {
    mockFetch({ 'GET /api/thing': { id: 'a' } });
    await expect(apiRequest('/thing', schema)).resolves.toEqual({ id: 'a' });
  });

  it('turns a 422 into an ApiError carrying the detail', async () => {
    mockFetch({ 'POST /api/runs': reply(422, { detail: 'connections out of range' }) });
    const error = await apiRequest('/runs', schema, { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toBe('connections out of range');
  });

  it('carries a 429’s Retry-After in seconds, and none when the answer has none', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ detail: 'you already have 3 builds waiting or under way' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '10' },
          }),
        ),
      ),
    );
    const busy = await apiRequest('/variants', schema, { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ApiError);
    expect(busy).toMatchObject({ status: 429, retryAfterS: 10, message: 'you already have 3 builds waiting or under way' });

    mockFetch({ 'POST /api/runs': reply(422, { detail: 'connections out of range' }) });
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

  it('says what went wrong in Chinese, and passes the API’s own detail on as it came', async () => {
    await i18next.changeLanguage('zh');
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiRequest('/thing', schema)).rejects.toThrow('无法连接后端（GET /api/thing）。');
    mockFetch({ 'GET /api/thing': reply(500, 'oops'), 'POST /api/runs': reply(422, { detail: 'connections out of range' }) });
    await expect(apiRequest('/thing', schema)).rejects.toThrow(/^GET \/api\/thing 返回了 500/);
    await expect(apiRequest('/runs', schema, { method: 'POST', body: {} })).rejects.toThrow('connections out of range');
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
