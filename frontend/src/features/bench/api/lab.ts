import { z } from 'zod';

import { apiRequest } from '@/lib/api-client';
import { comparisonSchema, historyEntrySchema, labFieldsSchema } from '@/lib/api-schemas';

export function getLabFields(signal?: AbortSignal) {
  return apiRequest('/lab/fields', labFieldsSchema, { signal });
}

export interface HistoryFilter {
  server?: string | undefined;
  lesson?: string | undefined;
}

export function getHistory(filter: HistoryFilter, signal?: AbortSignal) {
  const query = new URLSearchParams();
  if (filter.server) query.set('server', filter.server);
  if (filter.lesson) query.set('lesson', filter.lesson);
  const suffix = query.size ? `?${query.toString()}` : '';
  return apiRequest(`/history${suffix}`, z.array(historyEntrySchema), { signal });
}

/** Each run after the first against the first: a QPS verdict with the interval the runners'
 *  run-to-run spread allows (none for a run without figures to compare). */
export function compareRuns(runIds: readonly string[], signal?: AbortSignal) {
  const query = new URLSearchParams(runIds.map((id) => ['run', id]));
  return apiRequest(`/history/compare?${query.toString()}`, z.array(comparisonSchema), { signal });
}
