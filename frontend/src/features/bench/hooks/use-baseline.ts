import { useQuery } from '@tanstack/react-query';

import type { Baseline } from '@/lib/api-schemas';

import { getBaselines } from '../api/baselines';

/**
 * The recorded reference result of one experiment block: the lesson's baselines, matched by the
 * block's key, which stands for what it asks the runner (the same in every language; a block
 * whose request changed since it was recorded has none). No key yet, no recording.
 */
export function useBaseline(lessonSlug: string | undefined, key: string | undefined): Baseline | undefined {
  const baselines = useQuery({
    queryKey: ['baselines', lessonSlug],
    queryFn: ({ signal }) => getBaselines(lessonSlug ?? '', signal),
    enabled: Boolean(lessonSlug),
    staleTime: Infinity,
  });
  return key ? baselines.data?.experiments.find((b) => b.key === key) : undefined;
}
