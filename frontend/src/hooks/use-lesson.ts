import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import { lessonSchema, type LessonExperiment } from '@/lib/api-schemas';

/**
 * GET /api/lessons/{slug}, under one react-query key: the lesson page draws it, and the
 * experiment widgets in it read its `experiments` from the same cache entry (no second fetch).
 */
/** Every cached lesson. What a lesson holds depends on who reads it (an instructor's has the
 *  speaker notes), so signing in or out forgets them all. */
export const LESSON_QUERY_PREFIX = ['lesson'] as const;

export function lessonQuery(slug: string) {
  return queryOptions({
    queryKey: [...LESSON_QUERY_PREFIX, slug],
    queryFn: ({ signal }) => apiRequest(`/lessons/${encodeURIComponent(slug)}`, lessonSchema, { signal }),
  });
}

/** The server's entry for one ```experiment block: the one whose trimmed text is the block's. */
export function findLessonExperiment(experiments: LessonExperiment[], code: string): LessonExperiment | undefined {
  const text = code.trim();
  return experiments.find((e) => e.source.trim() === text);
}

/**
 * The lesson's entry for an experiment block (its key and title), or undefined when the block
 * is in no lesson, the lesson is still loading, or the server lists no such block (edited since
 * it started, or a backend from before the tags).
 */
export function useLessonExperiment(slug: string | undefined, code: string): LessonExperiment | undefined {
  const experiments = useQuery({
    ...lessonQuery(slug ?? ''),
    enabled: Boolean(slug),
    // The lesson page keeps the entry fresh; a widget that mounts later must not refetch it.
    staleTime: Infinity,
    select: (lesson) => lesson.experiments,
  });
  return experiments.data ? findLessonExperiment(experiments.data, code) : undefined;
}
