import { apiRequest } from '@/lib/api-client';
import { lessonBaselinesSchema } from '@/lib/api-schemas';

export function getBaselines(slug: string, signal?: AbortSignal) {
  return apiRequest(`/lessons/${encodeURIComponent(slug)}/baselines`, lessonBaselinesSchema, { signal });
}
