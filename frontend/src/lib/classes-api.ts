/**
 * A class's own calls that both the people feature (an instructor's list of classes) and the
 * classroom feature (the class page) make: one client function each, here, since features do
 * not import each other.
 */
import { apiRequest } from './api-client';
import { classSchema } from './api-schemas';

/** Ends a class: its code admits nobody, its students' sessions end, their waiting runs are
 *  cancelled. There is no undoing it. */
export function endClass(id: string) {
  return apiRequest(`/classes/${encodeURIComponent(id)}/end`, classSchema, { method: 'POST' });
}
