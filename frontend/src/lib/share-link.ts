/**
 * Links to a result that work outside the page they were made on: the hash router's in-app
 * path made absolute, and the History comparison's address (`/compare?results=run:…,sweep:…`),
 * the order kept because the first result is the one the others are measured against.
 */
import { z } from 'zod';

/** The absolute address of an in-app path under the hash router: what a recipient pastes into a
 *  fresh browser (`http://host:8000/#/runs/3f2a…`). */
export function absoluteLink(path: string, location: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return `${location.origin}${location.pathname}#${path.startsWith('/') ? path : `/${path}`}`;
}

/** One result of a comparison: a run or a sweep, by id. */
export interface ComparedResult {
  kind: 'run' | 'sweep';
  id: string;
}

/** The most a comparison link names: a History comparison of more would not fit a chart. */
export const MAX_COMPARED = 20;

const RESULT = z
  .string()
  .regex(/^(run|sweep):[A-Za-z0-9_-]+$/)
  .transform((item): ComparedResult => {
    const [kind, id] = item.split(':') as ['run' | 'sweep', string];
    return { kind, id };
  });

/** `/compare?results=run:a,sweep:b` for the results in order. */
export function compareLink(results: ComparedResult[]): string {
  return `/compare?results=${results.map((r) => `${r.kind}:${encodeURIComponent(r.id)}`).join(',')}`;
}

export type CompareAddress = { ok: true; results: ComparedResult[] } | { ok: false; problem: 'none' | 'malformed' | 'tooMany'; item?: string };

/** The results a comparison's address names, or what is wrong with it, for a page to say. */
export function comparedFromSearch(params: URLSearchParams): CompareAddress {
  const items = (params.get('results') ?? '').split(',').filter(Boolean);
  if (items.length === 0) return { ok: false, problem: 'none' };
  if (items.length > MAX_COMPARED) return { ok: false, problem: 'tooMany' };
  const results: ComparedResult[] = [];
  for (const item of items) {
    const parsed = RESULT.safeParse(item);
    if (!parsed.success) return { ok: false, problem: 'malformed', item };
    if (!results.some((r) => r.kind === parsed.data.kind && r.id === parsed.data.id)) results.push(parsed.data);
  }
  return { ok: true, results };
}
