/** Number formatting shared by tables, labels and chart ticks. Numbers keep one format ("16,000")
 *  in every language; the units are symbols (µs, MiB) but for the counted things (`formatCount`). */
import common from '@/locales/en/common.json';

import { i18next } from './i18n';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatInt(value: number): string {
  return integer.format(value);
}

const pluralRules = new Intl.PluralRules('en-US');

/** The word for `count` things, in English: "thread" for 1, "threads" for 0, 2 or 1.5. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return pluralRules.select(count) === 'one' ? singular : pluralForm;
}

/** The things the interface counts, each with its forms in `common:units` ("1 thread", "2 个线程"). */
export type CountUnit = PluralBase<keyof typeof common.units>;
type PluralBase<Key> = Key extends `${infer Base}_${'one' | 'other'}` ? Base : never;

const COUNT_UNITS: ReadonlySet<string> = new Set(Object.keys(common.units).map((key) => key.replace(/_(one|other)$/, '')));

function isCountUnit(word: string): word is CountUnit {
  return COUNT_UNITS.has(word);
}

/**
 * A count with its unit, agreeing in number, in the interface's language when called: "1 thread",
 * "2 threads", "16,000 connections"; in Chinese "2 个线程". A unit `common:units` does not name
 * (or one given with its own plural form) is English words, put together as they are.
 */
export function formatCount(count: number, unit: CountUnit): string;
export function formatCount(count: number, singular: string, pluralForm?: string): string;
export function formatCount(count: number, singular: string, pluralForm?: string): string {
  if (pluralForm === undefined && isCountUnit(singular)) {
    return i18next.t(`units.${singular}`, { ns: 'common', count, n: integer.format(count) });
  }
  return `${integer.format(count)} ${plural(count, singular, pluralForm)}`;
}

export function formatQps(value: number): string {
  return value >= 100 ? integer.format(value) : oneDecimal.format(value);
}

/** Latency given in microseconds, shown in the unit that keeps 3 significant digits. */
export function formatLatencyUs(us: number): string {
  if (!Number.isFinite(us)) return '—';
  if (us < 1000) return `${us < 10 ? us.toFixed(1) : integer.format(us)} µs`;
  const ms = us / 1000;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : integer.format(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

const threeDigits = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/**
 * A latency axis tick, given in microseconds: the unit that fits and no trailing zeros
 * ("250 µs", "1.5 ms", "2 s"); zero is a bare "0", not "0.0 µs".
 */
export function formatLatencyTickUs(us: number): string {
  if (!Number.isFinite(us)) return '';
  if (us === 0) return '0';
  if (us < 1000) return `${threeDigits.format(us)} µs`;
  if (us < 1_000_000) return `${threeDigits.format(us / 1000)} ms`;
  return `${threeDigits.format(us / 1_000_000)} s`;
}

export const BYTES_PER_MIB = 1024 * 1024;

export function bytesToMiB(bytes: number): number {
  return bytes / BYTES_PER_MIB;
}

export function formatMiB(bytes: number): string {
  return `${oneDecimal.format(bytesToMiB(bytes))} MiB`;
}

/** System calls per request: two decimals ("2.02"), and below 0.1 two significant digits, so
 *  io_uring's 0.04 reads as 0.04 and a 0.004 is not rounded to nothing. */
export function formatCalls(value: number): string {
  if (value === 0 || Math.abs(value) >= 0.1) return value.toFixed(2);
  return String(Number(value.toPrecision(2)));
}

export function formatPercent(value: number): string {
  return `${oneDecimal.format(value)} %`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < BYTES_PER_MIB) return `${oneDecimal.format(bytes / 1024)} KiB`;
  return formatMiB(bytes);
}
