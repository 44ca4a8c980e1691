import { useQuery } from '@tanstack/react-query';

import { getMe } from '../api/people';

export const ME_QUERY_KEY = ['me'] as const;

/**
 * GET /api/auth/me: the course's mode and who this browser is. Shared by the header, the
 * people pages and (through the app) the Run widgets; asked again when the window regains
 * focus, so a session that ended elsewhere shows.
 */
export function useMe() {
  return useQuery({
    queryKey: ME_QUERY_KEY,
    queryFn: ({ signal }) => getMe(signal),
    refetchOnWindowFocus: true,
  });
}
