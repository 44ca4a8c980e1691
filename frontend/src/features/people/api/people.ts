/**
 * The people endpoints: who this browser is (/auth/me), an instructor's login and logout, a
 * student joining a class, and an instructor's classes (ending one: src/lib/classes-api.ts). The session is an httpOnly cookie the
 * server sets; same-origin fetch sends it without being asked.
 */
import { z } from 'zod';

import { apiRequest } from '@/lib/api-client';
import { classSchema } from '@/lib/api-schemas';

import { classListSchema, joinedSchema, meSchema, personSchema } from '../lib/people-schemas';

export function getMe(signal?: AbortSignal) {
  return apiRequest('/auth/me', meSchema, { signal });
}

export function login(name: string, password: string) {
  return apiRequest('/auth/login', personSchema, { method: 'POST', body: { name, password } });
}

/** POST /api/auth/logout answers 204 with no body: nothing to check. The shared client words
 *  its failures (backend away, a refusal) as for every other call. */
export function logout(): Promise<void> {
  return apiRequest('/auth/logout', z.undefined(), { method: 'POST' });
}

export function joinClass(code: string, name: string) {
  return apiRequest('/classes/join', joinedSchema, { method: 'POST', body: { code, name } });
}

/** Back in one's class on another device (or after signing out), with one's personal code. */
export function comeBack(code: string, personalCode: string) {
  return apiRequest('/classes/come-back', meSchema, { method: 'POST', body: { code, personal_code: personalCode } });
}

export function listClasses(signal?: AbortSignal) {
  return apiRequest('/classes', classListSchema, { signal });
}

/** `endsAt`: ISO 8601 with a zone; at that time the class ends by itself. `resultsDays`: how
 *  long after it ends its students may still read their results. */
export function createClass(name: string, endsAt: string | undefined, resultsDays: number) {
  const body = { name, results_days: resultsDays, ...(endsAt === undefined ? {} : { ends_at: endsAt }) };
  return apiRequest('/classes', classSchema, { method: 'POST', body });
}
