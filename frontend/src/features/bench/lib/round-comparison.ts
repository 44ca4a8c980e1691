/**
 * A comparison in rounds (a sweep whose varied field is `round`: every round runs each server
 * entry once, in an order drawn each round): per entry, the median over its rounds of QPS and
 * p99, and once every round has run the backend's verdict with its interval, so a learner's
 * edited server is read against the original it came from. Pure, for the charts, the tables
 * and the tests.
 */
import type { TFunction } from 'i18next';

import type { Comparison, EntryFigures, Interval, SweepPoint } from '@/lib/api-schemas';
import { verdictParts } from '@/lib/verdict';

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
  /** The confidence of min–max as an interval for the median (the backend's, once every round
   *  has run); null while they are only the range of the rounds so far. */
  level: number | null;
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
      level: null,
    };
  });
}

function bandOf(interval: Interval | null): Spread | null {
  return interval ? { median: interval.estimate, min: interval.low, max: interval.high } : null;
}

/** Per entry, as the backend measured it over the rounds run undisturbed: each median with its
 *  interval in place of the range. */
export function summariseEntries(entries: EntryFigures[], rounds: number, t: TFunction<'bench'>): EntrySummary[] {
  const servers = entries.map((e) => e.server);
  return entries.map((e) => ({
    entry: e.server,
    label: entryLabel(e.server, servers, t),
    measured: e.qps?.count ?? 0,
    rounds,
    qps: bandOf(e.qps),
    p99_us: bandOf(e.p99_us),
    level: e.qps?.level ?? null,
  }));
}

/** A verdict's change in words, with its interval: "3.1–8.9 % more requests per second",
 *  "no difference in p99 this host can detect (±11 %)". */
export function changeWords(verdict: Comparison, t: TFunction<'bench'>): string {
  const { key, values } = verdictParts(verdict);
  return t(`rounds.change.${verdict.metric}.${key}`, values);
}

/** The verdicts naming one entry against the reference, throughput then tail latency. */
export function verdictsOf(verdicts: Comparison[], subject: string): { qps?: Comparison; p99_us?: Comparison } {
  const own = verdicts.filter((v) => v.subject === subject);
  return { qps: own.find((v) => v.metric === 'qps'), p99_us: own.find((v) => v.metric === 'p99_us') };
}

/** Would more rounds say more? An interval that could not tell the two apart and is wider
 *  than this either way. */
export const NARROW_ENOUGH = 0.05;

export function widerThanNeeded(verdict: Comparison | undefined): boolean {
  const change = verdict?.change;
  return verdict?.call === 'no_difference' && !!change && Math.max(-change.low, change.high) > NARROW_ENOUGH;
}
