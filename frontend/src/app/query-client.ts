import { QueryClient } from '@tanstack/react-query';

import { retryUnlessClientError } from '@/lib/api-client';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: retryUnlessClientError, staleTime: 30_000 },
    },
  });
}
