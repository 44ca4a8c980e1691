import { useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import { healthSchema } from '@/lib/api-schemas';

export const HEALTH_REFRESH_MS = 15_000;

/** GET /api/health, shared by the banner and every Run widget, refreshed every 15 s. */
export function useHealth() {
  return useQuery({
    queryKey: ['health'],
    queryFn: ({ signal }) => apiRequest('/health', healthSchema, { signal }),
    refetchInterval: HEALTH_REFRESH_MS,
  });
}
