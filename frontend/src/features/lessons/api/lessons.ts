import { useQuery } from '@tanstack/react-query';

import { lessonQuery } from '@/hooks/use-lesson';
import { apiRequest } from '@/lib/api-client';
import { glossarySchema, lessonListSchema } from '@/lib/api-schemas';

export function useLessons() {
  return useQuery({
    queryKey: ['lessons'],
    queryFn: ({ signal }) => apiRequest('/lessons', lessonListSchema, { signal }),
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
