import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { Class } from '@/lib/api-schemas';
import { endClass } from '@/lib/classes-api';

import { createClass, listClasses } from '../api/people';

export const CLASSES_QUERY_KEY = ['classes'] as const;
/** The list is on the projector while students join: their count follows this often. */
export const CLASSES_REFRESH_MS = 10_000;

/** GET /api/classes, for an instructor only (`enabled`): anyone else would get a 403. */
export function useClasses(enabled: boolean) {
  return useQuery({
    queryKey: CLASSES_QUERY_KEY,
    queryFn: ({ signal }) => listClasses(signal),
    enabled,
    refetchInterval: CLASSES_REFRESH_MS,
  });
}

export function useEndClass() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => endClass(id),
    onSuccess: (ended) => {
      client.setQueryData<Class[]>(CLASSES_QUERY_KEY, (classes) =>
        (classes ?? []).map((c) => (c.id === ended.id ? ended : c)),
      );
    },
  });
}

export function useCreateClass() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, endsAt, resultsDays }: { name: string; endsAt?: string; resultsDays: number }) =>
      createClass(name, endsAt, resultsDays),
    onSuccess: (created) => {
      client.setQueryData<Class[]>(CLASSES_QUERY_KEY, (classes) => [
        created,
        ...(classes ?? []).filter((c) => c.id !== created.id),
      ]);
      void client.invalidateQueries({ queryKey: CLASSES_QUERY_KEY });
    },
  });
}
