import { z } from 'zod';

import { mockFetch, reply } from '@/testing/mock-fetch';

import { ApiError, apiRequest, describeErrorBody } from './api-client';

describe('describeErrorBody', () => {
  it('reads FastAPI string and list details', () => {
    expect(describeErrorBody({ detail: 'unknown server "nope"' })).toBe('unknown server "nope"');
    expect(
      describeErrorBody({ detail: [{ loc: ['body', 'connections'], msg: 'Input should be less than 20000', type: 'x' }] }),
    ).toBe('connections: Input should be less than 20000');
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
});
