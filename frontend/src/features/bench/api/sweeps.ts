import { apiRequest, apiUrl } from '@/lib/api-client';
import { sweepCreatedSchema, sweepSchema } from '@/lib/api-schemas';

import type { ExperimentOrigin, SweepRequest } from '../lib/experiment-block';

/** POST /api/sweeps; `origin` (the lesson and block) tags the series for the class board. */
export function createSweep(request: SweepRequest, origin?: ExperimentOrigin) {
  return apiRequest('/sweeps', sweepCreatedSchema, { method: 'POST', body: { ...request, ...origin } });
}

/** The table: every point with its status (queued, running, done…) and figures so far. */
export function getSweep(id: string, signal?: AbortSignal) {
  return apiRequest(`/sweeps/${encodeURIComponent(id)}`, sweepSchema, { signal });
}

export function cancelSweep(id: string) {
  return apiRequest(`/sweeps/${encodeURIComponent(id)}`, sweepSchema, { method: 'DELETE' });
}

export function sweepEventsUrl(id: string): string {
  return apiUrl(`/sweeps/${encodeURIComponent(id)}/events`);
}
