import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import { zExerciseSummary } from '@/lib/api/generated/zod.gen';
import { apiRequest } from '@/lib/api-client';

export type ExerciseSummary = z.infer<typeof zExerciseSummary>;
const exerciseListSchema = z.array(zExerciseSummary);

/**
 * GET /api/exercises under one key: the exercises' page and each lesson's Exercises section
 * share one answer. They change with the course's content only.
 */
export function exerciseListQuery() {
  return queryOptions({
    queryKey: ['exercises'],
    queryFn: ({ signal }) => apiRequest('/exercises', exerciseListSchema, { signal }),
    staleTime: Infinity,
  });
}
