/**
 * The variants resource, /api/variants/{id}: a learner's saved edit of a C server. Shared
 * because two features read one: the editor opens it, and the lab runs it (`variant:<id>`).
 * Saving one and the learner's list stay in the edit feature (its api/variants.ts).
 */
import { z } from 'zod';

import { zVariantOut } from './api/generated/zod.gen';
import { apiRequest } from './api-client';

export type Variant = z.infer<typeof zVariantOut>;

export function getVariant(id: string, signal?: AbortSignal) {
  return apiRequest(`/variants/${encodeURIComponent(id)}`, zVariantOut, { signal });
}
