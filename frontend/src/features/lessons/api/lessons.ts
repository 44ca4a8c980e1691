import { useQuery } from '@tanstack/react-query';

import { useLanguage } from '@/hooks/use-language';
import { glossaryQuery, lessonListQuery, lessonQuery } from '@/hooks/use-lesson';

export function useLessons() {
  const language = useLanguage();
  return useQuery({
    ...lessonListQuery(language),
    select: (lessons) => [...lessons].sort((a, b) => a.order - b.order),
  });
}

export function useLesson(slug: string) {
  return useQuery(lessonQuery(slug, useLanguage()));
}

export function useGlossary() {
  return useQuery(glossaryQuery(useLanguage()));
}
