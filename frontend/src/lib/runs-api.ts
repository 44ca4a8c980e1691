/**
 * The runs resource, /api/runs/{id}: one client function per call, for every feature that
 * follows a run (the bench's runs, a variant's check run, a class's queue). Queueing a run is
 * not here: each feature sends its own request (POST /api/runs, POST /api/variants).
 */
import { apiRequest, apiUrl } from './api-client';
import { runCancelledSchema, runSchema } from './api-schemas';

export function getRun(id: string, signal?: AbortSignal) {
  return apiRequest(`/runs/${encodeURIComponent(id)}`, runSchema, { signal });
}

/** DELETE /api/runs/{id}: a waiting run leaves the queue, a running one is stopped. */
export function cancelRun(id: string) {
  return apiRequest(`/runs/${encodeURIComponent(id)}`, runCancelledSchema, { method: 'DELETE' });
}

/** The run's SSE stream; from event `lastEventId` + 1 when given (0: from the first). */
export function runEventsUrl(id: string, lastEventId = 0): string {
  const base = apiUrl(`/runs/${encodeURIComponent(id)}/events`);
  return lastEventId > 0 ? `${base}?last_event_id=${lastEventId}` : base;
}
