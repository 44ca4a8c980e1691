import { z } from 'zod';

import { apiRequest } from '@/lib/api-client';
import { historyEntrySchema, labFieldsSchema } from '@/lib/api-schemas';

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
