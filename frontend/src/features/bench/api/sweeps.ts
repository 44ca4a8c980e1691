import { apiRequest, apiUrl } from '@/lib/api-client';
import { sweepCreatedSchema, sweepSchema } from '@/lib/api-schemas';

import type { SweepRequest } from '../lib/experiment-block';

export function createSweep(request: SweepRequest) {
  return apiRequest('/sweeps', sweepCreatedSchema, { method: 'POST', body: request });
}

export function cancelSweep(id: string) {
  return apiRequest(`/sweeps/${encodeURIComponent(id)}`, sweepSchema, { method: 'DELETE' });
}

export function sweepEventsUrl(id: string): string {
  return apiUrl(`/sweeps/${encodeURIComponent(id)}/events`);
}
