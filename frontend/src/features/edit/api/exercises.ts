import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';

import { zExerciseOut, zMeasured, zSolutionOut, zVerdict } from '@/lib/api/generated/zod.gen';
import { apiRequest } from '@/lib/api-client';

export type Exercise = z.infer<typeof zExerciseOut>;
export type Verdict = z.infer<typeof zVerdict>;
export type Measured = z.infer<typeof zMeasured>;

/** GET /api/exercises/{slug}: the statement, hints, starter file and how an answer is judged. */
export function exerciseQuery(slug: string) {
  return queryOptions({
    queryKey: ['exercises', slug],
    queryFn: ({ signal }) => apiRequest(`/exercises/${encodeURIComponent(slug)}`, zExerciseOut, { signal }),
    staleTime: Infinity,
  });
}

/** GET /api/exercises/{slug}/solution: a whole solution file, asked for only once the learner
 *  has said they want to see it. */
export function solutionQuery(slug: string) {
  return queryOptions({
    queryKey: ['exercises', slug, 'solution'],
    queryFn: ({ signal }) => apiRequest(`/exercises/${encodeURIComponent(slug)}/solution`, zSolutionOut, { signal }),
    staleTime: Infinity,
  });
}
