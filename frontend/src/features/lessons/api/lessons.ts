import { useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import { glossarySchema, lessonListSchema, lessonSchema } from '@/lib/api-schemas';

export function useLessons() {
  return useQuery({
    queryKey: ['lessons'],
    queryFn: ({ signal }) => apiRequest('/lessons', lessonListSchema, { signal }),
    select: (lessons) => [...lessons].sort((a, b) => a.order - b.order),
  });
}

export function useLesson(slug: string) {
  return useQuery({
    queryKey: ['lesson', slug],
    queryFn: ({ signal }) => apiRequest(`/lessons/${encodeURIComponent(slug)}`, lessonSchema, { signal }),
  });
}

export function useGlossary() {
  return useQuery({
    queryKey: ['glossary'],
    queryFn: ({ signal }) => apiRequest('/glossary', glossarySchema, { signal }),
    staleTime: Infinity,
  });
}
