import { useQuery } from '@tanstack/react-query';

import { getRun } from '@/lib/runs-api';

/** The runner's record of where a run was measured (its result's provenance), fetched once per
 *  run and shared by every part that names the host: a series' page and its exports. */
export function useRunProvenance(runId: string | null): { provenance: Record<string, unknown> | null; pending: boolean } {
  const query = useQuery({
    queryKey: ['runs', runId, 'provenance'],
    queryFn: ({ signal }) => getRun(runId ?? '', signal),
    enabled: runId !== null,
    staleTime: Infinity,
    select: (run) => run.result?.provenance ?? null,
  });
  return { provenance: query.data ?? null, pending: runId !== null && query.isPending };
}
