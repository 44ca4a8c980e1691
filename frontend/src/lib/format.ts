/** Number formatting shared by tables, labels and chart ticks. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatInt(value: number): string {
  return integer.format(value);
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
