import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { useLanguage } from '@/hooks/use-language';
import { glossaryQuery, lessonListQuery, lessonQuery } from '@/hooks/use-lesson';
import type { Language } from '@/lib/i18n';

import type { SearchEngine } from '../lib/search-engine';

/**
 * GET /api/lessons, every GET /api/lessons/{slug} and GET /api/glossary, each under the key
 * the lesson pages use, so what a reader has opened is not fetched again and what search
 * fetched opens at once. A lesson that fails to load is left out; without the list there is
 * nothing to search, so that failure is the query's.
 */
async function loadCourse(client: QueryClient, language: Language) {
  const [lessons, glossary] = await Promise.all([
    client.query({ ...lessonListQuery(language), staleTime: Infinity }),
    client.query(glossaryQuery(language)).catch(() => null),
  ]);
  // Whatever is cached will do: an index made a little stale is still a good index.
  const loaded = await Promise.allSettled(
    lessons.map((lesson) => client.query({ ...lessonQuery(lesson.slug, language), staleTime: Infinity })),
  );
  const full = loaded.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  return { lessons: full, glossary, missing: lessons.length - full.length };
}

export interface CourseSearch {
  engine: SearchEngine;
  /** Lessons that could not be loaded, so are not searched. */
  missing: number;
}

/**
 * The course's search index, made the first time it is `enabled` (the reader is about to
 * search) and kept for the visit: the index module (MiniSearch and a Markdown parser) is a
 * chunk of its own that the home page does not load. One per language of the interface, as
 * the course's text follows it.
 */
export function useCourseSearch(enabled: boolean) {
  const client = useQueryClient();
  const language = useLanguage();
  return useQuery({
    queryKey: ['search', 'course-index', language],
    queryFn: async (): Promise<CourseSearch> => {
      const [{ createCourseSearch }, course] = await Promise.all([import('../lib/search-engine'), loadCourse(client, language)]);
      return { engine: createCourseSearch(course.lessons, course.glossary), missing: course.missing };
    },
    enabled,
    staleTime: Infinity,
    // An index is not data to compare field by field with the last one.
    structuralSharing: false,
  });
}
