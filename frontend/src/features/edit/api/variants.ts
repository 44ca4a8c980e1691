import { z } from 'zod';

import { zVariantCreated, zVariantOut } from '@/lib/api/generated/zod.gen';
import { ApiError, apiRequest, apiUrl, describeErrorBody } from '@/lib/api-client';
import { runCancelledSchema, runSchema, sourceSchema, sweepCreatedSchema, type SweepRequest } from '@/lib/api-schemas';

export type Variant = z.infer<typeof zVariantOut>;
export type VariantCreated = z.infer<typeof zVariantCreated>;
const variantListSchema = z.array(zVariantOut);

/** An answer of the API that refused a request, with the seconds a 429 asks to wait. */
export class RefusedError extends ApiError {
  readonly retryAfterS: number | null;

  constructor(message: string, status: number | null, retryAfterS: number | null) {
    super(message, status);
    this.name = 'RefusedError';
    this.retryAfterS = retryAfterS;
  }
}

/** Retry-After in seconds (the API sends whole seconds; an HTTP date is not expected here). */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return null;
  return Number(header);
}

/**
 * POST /api/variants: keep the edited file and queue its build and check. Not apiRequest:
 * a 429 here says when to try again (Retry-After), which the page shows beside the button.
 */
export async function createVariant(server: string, source: string): Promise<VariantCreated> {
  const url = apiUrl('/variants');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ server, source }),
    });
  } catch {
    throw new RefusedError(`Cannot reach the backend (POST ${url}): your file is kept here; try again.`, null, null);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const detail = describeErrorBody(body) ?? `POST ${url} answered ${response.status} ${response.statusText}`.trim();
    throw new RefusedError(detail, response.status, retryAfterSeconds(response.headers.get('Retry-After')));
  }
  const parsed = zVariantCreated.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(`POST ${url} answered in an unexpected shape: ${z.prettifyError(parsed.error)}`, response.status);
  }
  return parsed.data;
}

export function getVariant(id: string, signal?: AbortSignal) {
  return apiRequest(`/variants/${encodeURIComponent(id)}`, zVariantOut, { signal });
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

export function getRun(id: string, signal?: AbortSignal) {
  return apiRequest(`/runs/${encodeURIComponent(id)}`, runSchema, { signal });
}

export function cancelRun(id: string) {
  return apiRequest(`/runs/${encodeURIComponent(id)}`, runCancelledSchema, { method: 'DELETE' });
}

export function runEventsUrl(id: string, lastEventId: number): string {
  const base = apiUrl(`/runs/${encodeURIComponent(id)}/events`);
  return lastEventId > 0 ? `${base}?last_event_id=${lastEventId}` : base;
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

/** The original server and its edit, interleaved round by round: [server, variant:<id>]. */
export function comparisonRequest(server: string, variantId: string, rounds: number, base: ComparisonBase): ComparisonRequest {
  return {
    servers: [server, `variant:${variantId}`],
    vary: 'round',
    values: Array.from({ length: rounds }, (_, i) => i + 1),
    base,
  };
}

export function createComparison(request: ComparisonRequest) {
  return apiRequest('/sweeps', sweepCreatedSchema, { method: 'POST', body: request });
}
