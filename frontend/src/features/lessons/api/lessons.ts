import { useQuery } from '@tanstack/react-query';

import { lessonListQuery, lessonQuery } from '@/hooks/use-lesson';
import { apiRequest } from '@/lib/api-client';
import { glossarySchema } from '@/lib/api-schemas';

export function useLessons() {
  return useQuery({
    ...lessonListQuery(),
    select: (lessons) => [...lessons].sort((a, b) => a.order - b.order),
  });
}

export function useLesson(slug: string) {
  return useQuery(lessonQuery(slug));
}

export function useGlossary() {
  return useQuery({
    queryKey: ['glossary'],
    queryFn: ({ signal }) => apiRequest('/glossary', glossarySchema, { signal }),
    staleTime: Infinity,
  });
}
