import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import { zExerciseSummary } from '@/lib/api/generated/zod.gen';
import { apiRequest } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';

export type ExerciseSummary = z.infer<typeof zExerciseSummary>;
const exerciseListSchema = z.array(zExerciseSummary);

/**
 * GET /api/exercises in `language` (English where not translated) under one key per language:
 * the exercises' page, each lesson's Exercises section and the class page share one answer.
 * They change with the course's content only.
 */
export function exerciseListQuery(language: Language) {
  return queryOptions({
    queryKey: ['exercises', language],
    queryFn: ({ signal }) => apiRequest(`/exercises?lang=${language}`, exerciseListSchema, { signal }),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}
