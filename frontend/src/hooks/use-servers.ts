import { useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import { serverListSchema } from '@/lib/api-schemas';

/** GET /api/servers: the sandbox catalog (titles, images, knobs). Fetched once. */
export function useServers() {
  return useQuery({
    queryKey: ['servers'],
    queryFn: ({ signal }) => apiRequest('/servers', serverListSchema, { signal }),
    staleTime: Infinity,
  });
}
