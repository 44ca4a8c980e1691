import { vi } from 'vitest';

import { problem } from './problem';

export interface MockRequest {
  method: string;
  url: string;
  path: string;
  body: unknown;
}

type Handler = (request: MockRequest) => { status?: number; body: unknown } | undefined;

/**
 * Replaces fetch with a router over `METHOD /path?query` keys (query optional
 * in the key). Unknown requests answer 404 as the API does for a path it has no route for
 * (Starlette's refusal, `http-refusal`).
 */
export function mockFetch(routes: Record<string, unknown>) {
  const calls: MockRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: MockRequest = { method, url: url.pathname + url.search, path: url.pathname, body };
    calls.push(request);
    await Promise.resolve();
    const route = routes[`${method} ${url.pathname}${url.search}`] ?? routes[`${method} ${url.pathname}`];
    let answer: { status?: number; body: unknown } | undefined;
    if (typeof route === 'function') answer = (route as Handler)(request);
    else if (route !== undefined) answer = { body: route };
    const status = answer?.status ?? (answer ? 200 : 404);
    const payload = answer ? answer.body : problem('http-refusal', { status: 404, reason: 'Not Found' });
    // 204 No Content (a logout) has no body at all: a Response refuses one.
    const noBody = status === 204 || status === 205 || status === 304;
    return new Response(noBody ? null : JSON.stringify(payload), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

/** A reply with a status code, for use as a route value. */
export function reply(status: number, body: unknown): Handler {
  return () => ({ status, body });
}
