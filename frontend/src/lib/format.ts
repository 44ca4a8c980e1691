/** Number formatting shared by tables, labels and chart ticks. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatInt(value: number): string {
  return integer.format(value);
}

const pluralRules = new Intl.PluralRules('en-US');

/** The word for `count` things: "thread" for 1, "threads" for 0, 2 or 1.5. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return pluralRules.select(count) === 'one' ? singular : pluralForm;
}

/** A count with its unit, agreeing in number: "1 thread", "2 threads", "16,000 connections". */
export function formatCount(count: number, singular: string, pluralForm?: string): string {
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

export function formatPercent(value: number): string {
  return `${oneDecimal.format(value)} %`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < BYTES_PER_MIB) return `${oneDecimal.format(bytes / 1024)} KiB`;
  return formatMiB(bytes);
}
