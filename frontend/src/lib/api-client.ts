/**
 * The one place that talks HTTP to the backend. Every response is validated
 * with a zod schema before the UI sees it; failures become an ApiError whose
 * message is fit to show to a learner, in the interface's language at the time of the
 * failure: the API's refusal worded from its code (problem-text.ts), or our own words.
 */
import { z } from 'zod';

import { zProblem } from './api/generated/zod.gen';
import { env } from './env';
import { i18next, loadStrings } from './i18n';
import { problemText } from './problem-text';

export class ApiError extends Error {
  readonly status: number | null;
  /** The seconds the API asks to wait before trying again (a 429's or 503's Retry-After). */
  readonly retryAfterS: number | null;

  constructor(message: string, status: number | null, retryAfterS: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfterS = retryAfterS;
  }
}

/** Retry-After in seconds. The API sends whole seconds; an HTTP date (which it never sends)
 *  reads as null rather than as a guess. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return null;
  return Number(header);
}

export function apiUrl(path: string): string {
  return `${env.VITE_API_BASE}/api${path.startsWith('/') ? path : `/${path}`}`;
}

/** A refusal's body as the API documents it (`Problem`), worded in the interface's language:
 *  what was wrong and what to send instead. */
export function describeErrorBody(body: unknown): string | null {
  const parsed = zProblem.safeParse(body);
  return parsed.success ? problemText(parsed.data) : null;
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S,
  { method = 'GET', body, signal }: RequestOptions = {},
): Promise<z.infer<S>> {
  const url = apiUrl(path);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      signal,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(i18next.t('api.unreachable', { ns: 'common', method, url }), null);
  }

  const text = await response.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }

  if (!response.ok) {
    // The refusals' words are on no page's first load: they come with the first refusal.
    await loadStrings(['errors']);
    const detail = describeErrorBody(json);
    throw new ApiError(
      detail ?? i18next.t('api.answered', { ns: 'common', method, url, status: `${response.status} ${response.statusText}`.trim() }),
      response.status,
      retryAfterSeconds(response.headers.get('Retry-After')),
    );
  }
  // 204 No Content: only a caller that expects nothing (a z.undefined() schema) accepts it.
  if (json === undefined && response.status !== 204) {
    throw new ApiError(i18next.t('api.notJson', { ns: 'common', method, url }), response.status);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const problem = z.prettifyError(parsed.error);
    throw new ApiError(i18next.t('api.unexpectedShape', { ns: 'common', method, url, problem }), response.status);
  }
  return parsed.data;
}

/** Whether the API answered 404: what was asked for is not there (a wrong link, not a fault). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** react-query retry policy: retry a flaky network or 5xx once, never a 4xx answer. */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status !== null && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}
