import { apiRequest, apiUrl } from '@/lib/api-client';
import { runCancelledSchema, runCreatedSchema, runSchema } from '@/lib/api-schemas';

import type { ExperimentOrigin, RunRequest } from '../lib/experiment-block';

/** POST /api/runs; `origin` (the lesson and block) tags the run for the class board. */
export function createRun(request: RunRequest, origin?: ExperimentOrigin) {
  return apiRequest('/runs', runCreatedSchema, { method: 'POST', body: { ...request, ...origin } });
}

export function getRun(id: string, signal?: AbortSignal) {
  return apiRequest(`/runs/${encodeURIComponent(id)}`, runSchema, { signal });
}

export function cancelRun(id: string) {
  return apiRequest(`/runs/${encodeURIComponent(id)}`, runCancelledSchema, { method: 'DELETE' });
}

export function runEventsUrl(id: string, lastEventId?: number): string {
  const base = apiUrl(`/runs/${encodeURIComponent(id)}/events`);
  return lastEventId ? `${base}?last_event_id=${lastEventId}` : base;
}
