/**
 * Whether anything disturbed a run while it was measured, in a learner's words: the CPU time
 * other processes took from the server's and the load generator's CPUs, and the measured
 * intervals whose throughput left the run's median. Pure, for the results table and tests.
 */
import type { CpuUse, Drift, Interference } from '@/lib/api-schemas';
import { formatCount, formatPercent, formatQps, plural } from '@/lib/format';

const DRIFTED_SHOWN = 3;

function cpuWords(cpus: string): string {
  return /^\d+$/.test(cpus) ? `CPU ${cpus}` : `CPUs ${cpus}`;
}

function share(fraction: number | null | undefined): string {
  return formatPercent((fraction ?? 0) * 100);
}

function cpuFigure(whose: string, use: CpuUse): string | null {
  if (!use.judged) return null;
  return `${share(use.interference)} of ${whose} ${cpuWords(use.cpus)}`;
}

/** "others took 2 % of the server's CPU 0 and 3 % of the load generator's CPU 1 (limit 10 %)" */
export function describeInterference(interference: Interference): string {
  const figures = [
    cpuFigure("the server's", interference.server),
    cpuFigure("the load generator's", interference.loadgen),
  ].filter((f): f is string => f !== null);
  if (!figures.length) {
    return `CPU use by others not checked: ${interference.server.note ?? 'no figures'}`;
  }
  return `others took ${figures.join(' and ')} (limit ${share(interference.limit)})`;
}

/** "QPS within 30 % of its median (120,000) in all 5 intervals", or the intervals that left it. */
export function describeDrift(drift: Drift): string {
  if (!drift.judged) return `drift not checked: ${drift.note ?? 'too few intervals'}`;
  const median = drift.median_qps != null ? ` (${formatQps(drift.median_qps)} req/s)` : '';
  if (!drift.drifted.length) {
    return `QPS within ${share(drift.limit)} of its median${median} in all ${formatCount(drift.intervals, 'interval')}`;
  }
  const shown = drift.drifted
    .slice(0, DRIFTED_SHOWN)
    .map((d) => `${formatQps(d.qps)} at ${d.t_s.toFixed(1)} s`)
    .join(', ');
  const more = drift.drifted.length > DRIFTED_SHOWN ? ` and ${drift.drifted.length - DRIFTED_SHOWN} more` : '';
  return `QPS off its median${median} by more than ${share(drift.limit)} in ${drift.drifted.length} of ${drift.intervals} ${plural(drift.intervals, 'interval')}: ${shown}${more}`;
}

/** The figures behind a run's stable/unstable verdict, or null for a result without them. */
export function stabilityFigures(interference?: Interference | null, drift?: Drift | null): string | null {
  const parts = [interference ? describeInterference(interference) : null, drift ? describeDrift(drift) : null];
  const shown = parts.filter((p): p is string => p !== null);
  return shown.length ? shown.join(' · ') : null;
}
