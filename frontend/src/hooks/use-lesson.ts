import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import { lessonListSchema, lessonSchema, type LessonExperiment } from '@/lib/api-schemas';

/**
 * GET /api/lessons/{slug}, under one react-query key: the lesson page draws it, and the
 * experiment widgets in it read its `experiments` from the same cache entry (no second fetch).
 */
/** Every cached lesson. What a lesson holds depends on who reads it (an instructor's has the
 *  speaker notes), so signing in or out forgets them all. */
export const LESSON_QUERY_PREFIX = ['lesson'] as const;

/** GET /api/lessons under one key: the home page, the class page, search and the history's
 *  filter share one cached answer. */
export function lessonListQuery() {
  return queryOptions({
    queryKey: ['lessons'],
    queryFn: ({ signal }) => apiRequest('/lessons', lessonListSchema, { signal }),
  });
}

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

/** A block's entry as its lesson lists it, or why there is none (yet). */
export type LessonBlock =
  | { status: 'outside' }
  | { status: 'loading' }
  | { status: 'failed'; error: Error }
  | { status: 'unlisted' }
  | { status: 'listed'; experiment: LessonExperiment };

/**
 * The lesson's entry for an experiment block (its key, title and parsed request), or why there
 * is none: the block is in no lesson (`outside`), the lesson is loading or failed to, or the
 * server lists no such block (`unlisted`: edited since the page loaded).
 */
export function useLessonBlock(slug: string | undefined, code: string): LessonBlock {
  const experiments = useQuery({
    ...lessonQuery(slug ?? ''),
    enabled: Boolean(slug),
    // The lesson page keeps the entry fresh; a widget that mounts later must not refetch it.
    staleTime: Infinity,
    select: (lesson) => lesson.experiments,
  });
  if (!slug) return { status: 'outside' };
  if (experiments.error) return { status: 'failed', error: experiments.error };
  if (!experiments.data) return { status: 'loading' };
  const experiment = findLessonExperiment(experiments.data, code);
  return experiment ? { status: 'listed', experiment } : { status: 'unlisted' };
}

/** The lesson's entry for an experiment block, or undefined while there is none (useLessonBlock). */
export function useLessonExperiment(slug: string | undefined, code: string): LessonExperiment | undefined {
  const block = useLessonBlock(slug, code);
  return block.status === 'listed' ? block.experiment : undefined;
}
