import { useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import { sourceSchema } from '@/lib/api-schemas';

import { sourceRequestPath, type SourceBlock } from '../lib/source-block';

export function useSource(block: SourceBlock | null) {
  const path = block ? sourceRequestPath(block) : null;
  return useQuery({
    queryKey: ['source', path],
    queryFn: ({ signal }) => apiRequest(path ?? '', sourceSchema, { signal }),
    enabled: path !== null,
    staleTime: 60_000,
  });
}
