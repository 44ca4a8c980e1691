/**
 * Pure conversions from run state to chart points, kept out of the components
 * so they can be unit-tested without a canvas.
 */
import type { TFunction } from 'i18next';

import type { DoneEvent, PercentilePoint, Summary } from '@/lib/api-schemas';
import { bytesToMiB } from '@/lib/format';

import type { ProgressPoint, StatsPoint } from './run-state';

export interface XY {
  x: number;
  y: number;
}

/** A time-series point; y is null for a break in the line (between repetitions). */
export interface TimeXY {
  x: number;
  y: number | null;
}

/**
 * Splits progress points by phase. A run with repetitions warms up and measures again on a
 * fresh server each time: the lines break there instead of joining two servers' figures.
 */
function byPhase<T>(progress: ProgressPoint[], figure: (p: ProgressPoint) => T) {
  const phases: Record<ProgressPoint['phase'], { x: number; y: T | null }[]> = { warmup: [], measure: [] };
  let last: ProgressPoint['phase'] | null = null;
  for (const p of progress) {
    const into = phases[p.phase];
    if (last !== null && last !== p.phase && into.length > 0) into.push({ x: p.t, y: null });
    into.push({ x: p.t, y: figure(p) });
    last = p.phase;
  }
  return phases;
}

export function qpsSeries(progress: ProgressPoint[]): { warmup: TimeXY[]; measure: TimeXY[] } {
  return byPhase(progress, (p) => p.qps);
}

/** Live p50/p99 (in ms) of the measured intervals. */
export function liveLatencySeries(progress: ProgressPoint[]): { p50: TimeXY[]; p99: TimeXY[] } {
  const { measure } = byPhase(progress, (p) => p);
  return {
    p50: measure.map(({ x, y }) => ({ x, y: y === null ? null : y.p50 / 1000 })),
    p99: measure.map(({ x, y }) => ({ x, y: y === null ? null : y.p99 / 1000 })),
  };
}

/** How many drawn points a series has (its breaks are not points). */
export function plottedCount(...series: TimeXY[][]): number {
  return series.reduce((n, points) => n + points.filter((p) => p.y !== null).length, 0);
}

export function statsSeries(stats: StatsPoint[]): { cpu: XY[]; memory: XY[] } {
  return {
    cpu: stats.map((s) => ({ x: s.t, y: s.cpuPercent })),
    memory: stats.map((s) => ({ x: s.t, y: bytesToMiB(s.memoryBytes) })),
  };
}

/**
 * The recorded reference of an experiment, drawn dimmer under the learner's live run on the
 * same charts (never instead of it), and given a column of its own in the results table.
 */
export interface ReferenceRun {
  /** "reference (recorded 2026-11-22)" */
  label: string;
  progress: ProgressPoint[];
  stats: StatsPoint[];
  result: DoneEvent | null;
}

/** "reference (recorded 2026-11-22)", from the recording's timestamp. */
export function referenceLabel(recordedAt: string, t: TFunction<'bench'>): string {
  return t('chart.reference', { date: recordedAt.slice(0, 10) });
}

/** A finished run whose figures are not the server's undisturbed best: disturbed while it was
 *  measured, or limited by a saturated load generator (client-bound). Its points are marked. */
export function resultIsUnstable(result: DoneEvent | null | undefined): boolean {
  return result?.stable === false || result?.client?.bound === true;
}

/** When (t_s) the measured intervals were whose throughput the drift check found off the
 *  run's median: the QPS chart marks them. */
export function driftedTimes(result: DoneEvent | null | undefined): Set<number> {
  return new Set((result?.drift?.drifted ?? []).map((d) => d.t_s));
}

/** A stretch of the time axis that was not measured: a warm-up, with the restart before it. */
export interface WarmupBand {
  start: number;
  end: number;
}

/** The typical spacing of progress points (the load generator's interval), or null with
 *  fewer than two. */
function progressInterval(progress: ProgressPoint[]): number | null {
  const gaps = progress
    .slice(1)
    .map((p, i) => p.t - (progress[i]?.t ?? p.t))
    .filter((gap) => gap > 0)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? null;
}

/**
 * The warm-ups on the shared time axis, one per repetition, each exactly as long as the warm-up
 * asked for (`warmupS`) and ending with its last warm-up interval. The axis counts from when
 * the run started, before the server (and a syscall counter) started up: a band from 0 would
 * take that start-up for warm-up (0–1.5 s for a 1 s warm-up). Without `warmupS` (a run whose
 * request is not known here) its length is the warm-up intervals' count times their spacing.
 */
export function warmupBands(progress: ProgressPoint[], warmupS?: number): WarmupBand[] {
  const warmups: { end: number; count: number }[] = [];
  let last: ProgressPoint['phase'] | null = null;
  for (const p of progress) {
    if (p.phase === 'warmup') {
      const open = warmups.at(-1);
      if (last === 'warmup' && open) {
        open.end = p.t;
        open.count += 1;
      } else {
        warmups.push({ end: p.t, count: 1 });
      }
    }
    last = p.phase;
  }
  const interval = progressInterval(progress);
  return warmups.map(({ end, count }) => {
    const length = warmupS ?? (interval !== null ? count * interval : end);
    return { start: Math.max(0, end - length), end };
  });
}

/**
 * The right edge of every time chart, so QPS, latency and CPU line up. With the
 * run's planned length (warm-up + duration) the axis is fixed from the start
 * instead of stretching every second.
 */
export function timeAxisMax(progress: ProgressPoint[], stats: StatsPoint[], planned_s = 0): number | undefined {
  let max = planned_s;
  for (const p of progress) max = Math.max(max, p.t);
  for (const s of stats) max = Math.max(max, s.t);
  return max > 0 ? Math.ceil(max) : undefined;
}

// ───────────── HdrHistogram-style percentile axis ─────────────
// x = 1 / (1 - p): 50 % → 2, 90 % → 10, 99 % → 100, 99.9 % → 1000 on a log axis.

/** The labelled percentiles; 0 % (x = 1) has none: it sits a third of a decade from 50 % and
 *  their labels ran together ("0%50%") on a narrow chart. */
export const PERCENTILE_TICKS: readonly { x: number; label: string }[] = [
  { x: 2, label: '50%' },
  { x: 10, label: '90%' },
  { x: 100, label: '99%' },
  { x: 1000, label: '99.9%' },
  { x: 10_000, label: '99.99%' },
  { x: 100_000, label: '99.999%' },
];

/** The ticks of a percentile axis reaching `axisMax`. */
export function percentileTicks(axisMax: number): { value: number }[] {
  return PERCENTILE_TICKS.filter((t) => t.x <= axisMax).map((t) => ({ value: t.x }));
}

/**
 * Which points of an unstable run's distribution carry the unstable mark: all of a few, or,
 * of a full distribution (hundreds of points, drawn without dots), the one nearest each
 * labelled percentile, so the marks stay readable.
 */
export function unstablePercentiles(points: XY[], unstable: boolean): boolean[] {
  if (!unstable) return points.map(() => false);
  if (points.length <= 30) return points.map(() => true);
  const marked = new Set<number>();
  for (const { x: tick } of PERCENTILE_TICKS) {
    let nearest = -1;
    let nearestDistance = 0.1; // a tenth of a decade: no point that near, no mark
    points.forEach((p, i) => {
      const distance = Math.abs(Math.log10(p.x / tick));
      if (distance < nearestDistance) [nearest, nearestDistance] = [i, distance];
    });
    if (nearest >= 0) marked.add(nearest);
  }
  return points.map((_, i) => marked.has(i));
}

/** Accepts percentiles as 0–100 (HdrHistogram convention) or, if all are ≤ 1, as fractions. */
export function normalisePercentiles(points: PercentilePoint[]): PercentilePoint[] {
  const asFraction = points.length > 0 && points.every((p) => p.percentile <= 1);
  return asFraction ? points.map((p) => ({ ...p, percentile: p.percentile * 100 })) : points;
}

export function percentileToX(percentile: number, cap: number): number {
  if (percentile >= 100) return cap;
  return Math.min(cap, 100 / (100 - Math.max(0, percentile)));
}

export function percentileLabel(x: number): string {
  const p = 100 - 100 / x;
  if (p <= 0) return '0%';
  const digits = Math.max(0, Math.min(5, Math.ceil(-Math.log10(100 - p) - 1e-9)));
  return `${p.toFixed(digits)}%`;
}

/** Right edge of the percentile axis: at least 99.9 %, further if the data goes further. */
export function percentileAxisMax(points: PercentilePoint[]): number {
  let max = 1000;
  for (const p of points) {
    if (p.percentile < 100) max = Math.max(max, 100 / (100 - p.percentile));
  }
  return 10 ** Math.ceil(Math.log10(max) - 1e-9);
}

/** A summary's percentiles: optional in the generated contract (none in old recordings). */
export function percentilesOf(summary: { percentiles?: PercentilePoint[] | null }): PercentilePoint[] {
  return summary.percentiles ?? [];
}

/** The summary's distribution in ms; falls back to the headline percentiles. */
export function summaryDistribution(summary: Summary, cap: number): XY[] {
  const percentiles = percentilesOf(summary);
  const source: PercentilePoint[] = percentiles.length
    ? normalisePercentiles(percentiles)
    : [
        { percentile: 50, latency_us: summary.latency_us.p50 },
        { percentile: 90, latency_us: summary.latency_us.p90 },
        { percentile: 99, latency_us: summary.latency_us.p99 },
        { percentile: 99.9, latency_us: summary.latency_us.p999 },
        { percentile: 100, latency_us: summary.latency_us.max },
      ];
  return source
    .filter((p) => p.percentile >= 0)
    .map((p) => ({ x: percentileToX(p.percentile, cap), y: p.latency_us / 1000 }))
    .sort((a, b) => a.x - b.x);
}

/** The newest measured interval as a four-point distribution (shown while measuring). */
export function intervalDistribution(progress: ProgressPoint[]): XY[] {
  const last = [...progress].reverse().find((p) => p.phase === 'measure');
  if (!last) return [];
  return [
    { x: 2, y: last.p50 / 1000 },
    { x: 10, y: last.p90 / 1000 },
    { x: 100, y: last.p99 / 1000 },
    { x: 1000, y: last.p999 / 1000 },
  ];
}
