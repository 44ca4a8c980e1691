import { z } from 'zod';

import { zVariantCreated, zVariantOut } from '@/lib/api/generated/zod.gen';
import { apiRequest } from '@/lib/api-client';
import { sourceSchema, sweepCreatedSchema, type SweepRequest } from '@/lib/api-schemas';

// One client function per call: reading a variant is shared (the lab runs one too).
export { getVariant, type Variant } from '@/lib/variants-api';
export type VariantCreated = z.infer<typeof zVariantCreated>;
const variantListSchema = z.array(zVariantOut);

/**
 * POST /api/variants: keep the edited file and queue its build and check (with `exercise`, an
 * answer: the exercise's run checks and measures it). A refusal is an ApiError with the API's
 * words, and for a 429 the seconds to wait (Retry-After), which the page shows by the button.
 */
export function createVariant(server: string, source: string, exercise: string | null = null): Promise<VariantCreated> {
  const body = exercise === null ? { server, source } : { server, source, exercise };
  return apiRequest('/variants', zVariantCreated, { method: 'POST', body });
}

/** The react-query key of the learner's own list, refreshed after each build. */
export const VARIANTS_KEY = ['variants', 'mine'] as const;

/** GET /api/variants: the asker's own, newest first. */
export function listVariants(signal?: AbortSignal) {
  return apiRequest('/variants', variantListSchema, { signal });
}

/** The whole model file as the course has it (its anchor lines left out): "the original". */
export function getOriginal(path: string, signal?: AbortSignal) {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return apiRequest(`/sources/${encoded}`, sourceSchema, { signal });
}

/** The run settings a comparison's rounds share. */
export interface ComparisonBase {
  protocol: 'echo' | 'http';
  connections: number;
  duration_s: number;
  warmup_s: number;
  payload_bytes: number;
}

/** A sweep that runs the original and the edit in turn, once per round ("round" is the varied
 *  field: every round is the same run). */
export type ComparisonRequest = Omit<SweepRequest, 'vary' | 'base'> & { vary: 'round'; base: ComparisonBase };

/** The original server and its edit, round by round: [server, variant:<id>]; with `within`,
 *  only as many of the rounds as the host's noise says a verdict that wide needs. */
export function comparisonRequest(server: string, variantId: string, rounds: number, base: ComparisonBase, within?: number): ComparisonRequest {
  return {
    servers: [server, `variant:${variantId}`],
    vary: 'round',
    values: Array.from({ length: rounds }, (_, i) => i + 1),
    base,
    ...(within === undefined ? {} : { within }),
  };
}

export function createComparison(request: ComparisonRequest) {
  return apiRequest('/sweeps', sweepCreatedSchema, { method: 'POST', body: request });
}
