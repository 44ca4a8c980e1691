/**
 * A series experiment's points as chart series: one per server, x = the varied value (or
 * the server itself when nothing varies), y = the chosen figure. Pure, for the chart and tests.
 */
import type { SweepPoint } from '@/lib/api-schemas';

import type { SweepRequest } from './experiment-block';

export type SeriesMetric = 'qps' | 'p99_us' | 'calls_per_request';

export interface SeriesLine {
  server: string;
  /** One entry per value of the sweep, in order; null where there is no valid figure. */
  values: (number | null)[];
  /** Per value: the run was disturbed while it was measured (its figure is likely too low). */
  unstable: boolean[];
}

/** The figure a point contributes: only a finished, valid run has one. */
export function pointFigure(point: SweepPoint | undefined, metric: SeriesMetric): number | null {
  if (point?.status !== 'done' || !point.valid) return null;
  const figure = point[metric];
  return figure ?? null;
}

/** Something disturbed the point's run while it was measured: its figure is drawn, marked. */
export function isUnstable(point: SweepPoint | undefined): boolean {
  return point?.status === 'done' && point.stable === false;
}

export function seriesLines(sweep: SweepRequest, points: SweepPoint[], metric: SeriesMetric): SeriesLine[] {
  const at = new Map(points.map((p) => [`${p.server}@${p.value}`, p]));
  return sweep.servers.map((server) => ({
    server,
    values: sweep.values.map((value) => pointFigure(at.get(`${server}@${value}`), metric)),
    unstable: sweep.values.map((value) => isUnstable(at.get(`${server}@${value}`))),
  }));
}

/** Its servers run under strace (the syscall profile), many times slower than they can. */
export function isTraced(sweep: SweepRequest): boolean {
  return sweep.base.profile === 'syscalls';
}

/** The charts a series gets: a traced one's throughput and latency are no speed figures,
 *  so only its calls are drawn. */
export function chartMetrics(sweep: SweepRequest): SeriesMetric[] {
  return isTraced(sweep) ? ['calls_per_request'] : ['qps', 'p99_us'];
}

/** Connections and friends spanning two decades or more read best on a log axis. */
export function wantsLogAxis(values: number[]): boolean {
  const positive = values.filter((v) => v > 0);
  if (positive.length !== values.length || positive.length < 2) return false;
  return Math.max(...positive) / Math.min(...positive) >= 100;
}

/** Does the series vary a parameter (a line per server), or only compare servers (bars)? */
export function variesValue(sweep: SweepRequest): boolean {
  return sweep.values.length > 1;
}

/** Why a point has no figure, in a learner's words. */
export function pointNote(point: SweepPoint): string {
  switch (point.status) {
    case 'skipped':
      return `not run: ${point.reason ?? 'refused'}`;
    case 'failed':
    case 'cancelled':
      return `${point.status}${point.reason ? `: ${point.reason}` : ''}`;
    case 'done':
      return [
        point.valid ? '' : `invalid: ${point.reason ?? ''}`,
        point.stable === false ? `unstable: ${point.unstable_reason ?? ''}` : '',
        point.valid && point.noisy ? 'noisy' : '',
      ]
        .filter(Boolean)
        .join('; ');
    default:
      return point.status;
  }
}
