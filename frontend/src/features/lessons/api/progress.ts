/**
 * A signed-in person's progress, kept on the server in classroom mode (404 in solo mode, where
 * the browser keeps it): the lessons read, and the one open now (the roster's `lesson`).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import { zProgress } from '@/lib/api/generated/zod.gen';
import { apiRequest } from '@/lib/api-client';

export const serverProgressSchema = zProgress;
export type ServerProgress = z.infer<typeof serverProgressSchema>;

/** Per person: someone else signing in on this browser never sees the previous one's. */
export function serverProgressQuery(personId: string) {
  return queryOptions({
    queryKey: ['progress', personId],
    queryFn: ({ signal }) => apiRequest('/progress', serverProgressSchema, { signal }),
  });
}

export function markLessonRead(slug: string, read: boolean) {
  return apiRequest(`/progress/read/${encodeURIComponent(slug)}`, serverProgressSchema, { method: read ? 'PUT' : 'DELETE' });
}

export function setCurrentLesson(slug: string) {
  return apiRequest('/progress/current', serverProgressSchema, { method: 'PUT', body: { lesson: slug } });
}
