import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import { glossarySchema, lessonListSchema, lessonSchema, type LessonExperiment } from '@/lib/api-schemas';
import type { Language } from '@/lib/i18n';

import { useLanguage } from './use-language';

/**
 * GET /api/lessons/{slug}, under one react-query key: the lesson page draws it, and the
 * experiment widgets in it read its `experiments` from the same cache entry (no second fetch).
 */
/** Every cached lesson. What a lesson holds depends on who reads it (an instructor's has the
 *  speaker notes), so signing in or out forgets them all. */
export const LESSON_QUERY_PREFIX = ['lesson'] as const;

/** GET /api/lessons in the reader's language, under one key per language: the home page, the
 *  class page, search and the history's filter share one cached answer. */
export function lessonListQuery(language: Language) {
  return queryOptions({
    queryKey: ['lessons', language],
    queryFn: ({ signal }) => apiRequest(`/lessons?lang=${language}`, lessonListSchema, { signal }),
    placeholderData: (previous) => previous,
  });
}

/** GET /api/lessons/{slug} in `language` (English while it has no translation: the answer's
 *  `language` says which). While a switch of language fetches the other text, the page keeps
 *  showing this lesson as it was (never another lesson): its widgets, a running benchmark's
 *  among them, stay as they are. */
export function lessonQuery(slug: string, language: Language) {
  return queryOptions({
    queryKey: [...LESSON_QUERY_PREFIX, slug, language],
    queryFn: ({ signal }) => apiRequest(`/lessons/${encodeURIComponent(slug)}?lang=${language}`, lessonSchema, { signal }),
    placeholderData: (previous) => (previous?.slug === slug ? previous : undefined),
  });
}

/** GET /api/glossary in `language`; the last one stays on screen while a switch fetches it. */
export function glossaryQuery(language: Language) {
  return queryOptions({
    queryKey: ['glossary', language],
    queryFn: ({ signal }) => apiRequest(`/glossary?lang=${language}`, glossarySchema, { signal }),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
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
  const language = useLanguage();
  const experiments = useQuery({
    ...lessonQuery(slug ?? '', language),
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
