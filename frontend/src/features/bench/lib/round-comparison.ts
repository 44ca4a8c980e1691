/**
 * A comparison in rounds (a sweep whose varied field is `round`: every round runs each server
 * entry once, in turn): per entry, the median over its rounds of QPS and p99 and their range,
 * so a learner's edited server is read against the original it came from. Pure, for the
 * charts, the tables and the tests.
 */
import type { TFunction } from 'i18next';

import type { SweepPoint } from '@/lib/api-schemas';

import { pointFigure } from './series';

/** A sweep server entry naming a learner's edited server: "variant:" and its id. */
export const VARIANT_ENTRY = 'variant:';

/** Is this series a comparison in rounds (drawn as medians with their spread, not lines)? */
export function isRoundComparison(request: { vary: string }): boolean {
  return request.vary === 'round';
}

export function isVariantEntry(entry: string): boolean {
  return entry.startsWith(VARIANT_ENTRY);
}

/**
 * How an entry is labelled: "c-epoll (original)" beside "c-epoll (your edit)" when the series
 * compares one server with edits of it; an edit of a server not in the series by its id.
 */
export function entryLabel(entry: string, entries: readonly string[], t: TFunction<'bench'>): string {
  const originals = entries.filter((e) => !isVariantEntry(e));
  const hasEdit = entries.some(isVariantEntry);
  if (!isVariantEntry(entry)) return hasEdit ? t('rounds.original', { server: entry }) : entry;
  const [only] = originals;
  const edits = entries.filter(isVariantEntry);
  if (originals.length !== 1 || only === undefined) {
    return t('rounds.editById', { id: entry.slice(VARIANT_ENTRY.length, VARIANT_ENTRY.length + 8) });
  }
  return edits.length > 1 ? t('rounds.yourEditNumber', { server: only, number: edits.indexOf(entry) + 1 }) : t('rounds.yourEdit', { server: only });
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface EntrySummary {
  entry: string;
  label: string;
  /** Rounds with a valid figure, of `rounds` asked for. */
  measured: number;
  rounds: number;
  qps: Spread | null;
  p99_us: Spread | null;
}

/** The median (the mean of the middle two for an even count), least and greatest. */
export function spreadOf(values: number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return { median, min: sorted[0] ?? median, max: sorted.at(-1) ?? median };
}

/** Per entry, in the series' order: its median QPS and p99 over the rounds that measured it. */
export function summariseRounds(entries: readonly string[], rounds: number, points: SweepPoint[], t: TFunction<'bench'>): EntrySummary[] {
  return entries.map((entry) => {
    const own = points.filter((p) => p.server === entry);
    const figures = (metric: 'qps' | 'p99_us') => own.map((p) => pointFigure(p, metric)).filter((v): v is number => v !== null);
    return {
      entry,
      label: entryLabel(entry, entries, t),
      measured: figures('qps').length,
      rounds,
      qps: spreadOf(figures('qps')),
      p99_us: spreadOf(figures('p99_us')),
    };
  });
}

/** The edit's median against the original's, as a signed fraction (+0.12 = 12 % more); null
 *  without both. */
export function relativeChange(edit: Spread | null, original: Spread | null): number | null {
  if (!edit || !original || original.median === 0) return null;
  return edit.median / original.median - 1;
}
