/**
 * The people endpoints: who this browser is (/auth/me), an instructor's login and logout, a
 * student joining a class, and an instructor's classes. The session is an httpOnly cookie the
 * server sets; same-origin fetch sends it without being asked.
 */
import { ApiError, apiRequest, apiUrl, describeErrorBody } from '@/lib/api-client';

import { classListSchema, classSchema, meSchema, personSchema } from '../lib/people-schemas';

export function getMe(signal?: AbortSignal) {
  return apiRequest('/auth/me', meSchema, { signal });
}

export function login(name: string, password: string) {
  return apiRequest('/auth/login', personSchema, { method: 'POST', body: { name, password } });
}

/** POST /api/auth/logout answers 204 with no body, which apiRequest (JSON only) would refuse. */
export async function logout(): Promise<void> {
  const url = apiUrl('/auth/logout');
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { Accept: 'application/json' } });
  } catch {
    throw new ApiError(`Cannot reach the backend (POST ${url}).`, null);
  }
  if (response.ok) return;
  const body: unknown = await response.json().catch(() => undefined);
  throw new ApiError(describeErrorBody(body) ?? `POST ${url} answered ${response.status}`, response.status);
}

export function joinClass(code: string, name: string) {
  return apiRequest('/classes/join', meSchema, { method: 'POST', body: { code, name } });
}

export function listClasses(signal?: AbortSignal) {
  return apiRequest('/classes', classListSchema, { signal });
}

/** `endsAt`: ISO 8601 with a zone; at that time the class ends by itself. */
export function createClass(name: string, endsAt?: string) {
  const body = endsAt === undefined ? { name } : { name, ends_at: endsAt };
  return apiRequest('/classes', classSchema, { method: 'POST', body });
}

/** Ends a class: its code admits nobody, its students' sessions end, their waiting runs are cancelled. */
export function endClass(id: string) {
  return apiRequest(`/classes/${encodeURIComponent(id)}/end`, classSchema, { method: 'POST' });
}
