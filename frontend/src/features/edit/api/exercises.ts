import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';

import { zExerciseOut, zMeasured, zSolutionOut, zVerdict } from '@/lib/api/generated/zod.gen';
import { apiRequest } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';

export type Exercise = z.infer<typeof zExerciseOut>;
export type Verdict = z.infer<typeof zVerdict>;
export type Measured = z.infer<typeof zMeasured>;
export type Criterion = Exercise['criteria'][number];

/** GET /api/exercises/{slug} in `language`: the statement, hints, starter file and how an
 *  answer is judged (the words translated, what is checked the same in every language). */
export function exerciseQuery(slug: string, language: Language) {
  return queryOptions({
    queryKey: ['exercises', slug, language],
    queryFn: ({ signal }) =>
      apiRequest(`/exercises/${encodeURIComponent(slug)}?lang=${language}`, zExerciseOut, { signal }),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}

/** GET /api/exercises/{slug}/solution: a whole solution file, asked for only once the learner
 *  has said they want to see it. */
export function solutionQuery(slug: string) {
  return queryOptions({
    queryKey: ['exercise-solutions', slug],
    queryFn: ({ signal }) => apiRequest(`/exercises/${encodeURIComponent(slug)}/solution`, zSolutionOut, { signal }),
    staleTime: Infinity,
  });
}
