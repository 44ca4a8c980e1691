import { useQuery } from '@tanstack/react-query';

import type { Baseline } from '@/lib/api-schemas';

import { getBaselines } from '../api/baselines';

/**
 * The recorded reference result of one experiment block: the lesson's baselines, matched by
 * the block's exact text (a block edited since it was recorded has none).
 */
export function useBaseline(lessonSlug: string | undefined, code: string): Baseline | undefined {
  const baselines = useQuery({
    queryKey: ['baselines', lessonSlug],
    queryFn: ({ signal }) => getBaselines(lessonSlug ?? '', signal),
    enabled: Boolean(lessonSlug),
    staleTime: Infinity,
  });
  const text = code.trim();
  return baselines.data?.experiments.find((b) => b.block.trim() === text);
}
