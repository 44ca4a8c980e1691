/**
 * Whether anything disturbed a run while it was measured, in a learner's words: the CPU time
 * other processes took from the server's and the load generator's CPUs, and the measured
 * intervals whose throughput left the run's median. Pure, for the results table and tests.
 */
import type { TFunction } from 'i18next';

import type { CpuUse, Drift, Interference } from '@/lib/api-schemas';
import { formatInt, formatPercent, formatQps } from '@/lib/format';

import { listed as joined } from './words';

const DRIFTED_SHOWN = 3;

function share(fraction: number | null | undefined): string {
  return formatPercent((fraction ?? 0) * 100);
}

/** "CPU 0" for one CPU, "CPUs 0,2" for a set. */
function cpuWords(cpus: string, t: TFunction<'bench'>): string {
  return /^\d+$/.test(cpus) ? t('stability.cpu', { cpus }) : t('stability.cpus', { cpus });
}

/** "2 % of the server's CPU 0 (limit 7 %)": each set's own limit, or the one older results
 *  held for both. */
function cpuFigure(whose: 'server' | 'loadgen', use: CpuUse, shared: number, t: TFunction<'bench'>): string | null {
  if (!use.judged) return null;
  const values = { share: share(use.interference), cpus: cpuWords(use.cpus, t), limit: share(use.limit ?? shared) };
  return whose === 'server' ? t('stability.serverShare', values) : t('stability.loadgenShare', values);
}

/** "others took 2 % of the server's CPU 0 (limit 7 %) and 3 % of the load generator's CPU 1 (limit 9 %)" */
export function describeInterference(interference: Interference, t: TFunction<'bench'>): string {
  const { limit } = interference;
  const figures = [cpuFigure('server', interference.server, limit, t), cpuFigure('loadgen', interference.loadgen, limit, t)].filter(
    (f): f is string => f !== null,
  );
  if (!figures.length) {
    return t('stability.othersNotChecked', { note: interference.server.note ?? t('stability.noFigures') });
  }
  return t('stability.othersTook', { figures: figures.join(t('stability.and')) });
}

/** "QPS within 30 % of its median (120,000 req/s) in all 5 intervals", or the intervals that left it. */
export function describeDrift(drift: Drift, t: TFunction<'bench'>): string {
  if (!drift.judged) return t('stability.driftNotChecked', { note: drift.note ?? t('stability.tooFewIntervals') });
  const limit = share(drift.limit);
  const median = drift.median_qps != null ? formatQps(drift.median_qps) : null;
  const count = drift.intervals;
  if (!drift.drifted.length) {
    return median !== null
      ? t('stability.withinMedianOf', { limit, median, count, intervals: formatInt(count) })
      : t('stability.withinMedian', { limit, count, intervals: formatInt(count) });
  }
  const listed = joined(
    drift.drifted.slice(0, DRIFTED_SHOWN).map((d) => t('stability.driftedAt', { qps: formatQps(d.qps), seconds: d.t_s.toFixed(1) })),
    t,
  );
  const more = drift.drifted.length - DRIFTED_SHOWN;
  const shown = more > 0 ? t('stability.andMore', { listed, more }) : listed;
  const values = { limit, median, drifted: drift.drifted.length, count, shown };
  return median !== null ? t('stability.offMedianOf', values) : t('stability.offMedian', values);
}

/** The figures behind a run's stable/unstable verdict, or null for a result without them. */
export function stabilityFigures(interference: Interference | null | undefined, drift: Drift | null | undefined, t: TFunction<'bench'>): string | null {
  const parts = [interference ? describeInterference(interference, t) : null, drift ? describeDrift(drift, t) : null];
  const shown = parts.filter((p): p is string => p !== null);
  return shown.length ? shown.join(' · ') : null;
}
