/**
 * A series experiment's points as chart series: one per server, x = the varied value (or
 * the server itself when nothing varies), y = the chosen figure. Pure, for the chart and tests.
 */
import type { TFunction } from 'i18next';

import type { Sweep, SweepPoint } from '@/lib/api-schemas';
import { formatInt } from '@/lib/format';

import type { SweepRequest } from './experiment-block';
import { runStateLabel, type RunState } from './run-state';
import { statusWord, variedName } from './words';

export type SeriesMetric = 'qps' | 'p99_us' | 'calls_per_request';

export interface SeriesLine {
  server: string;
  /** One entry per value of the sweep, in order; null where there is no valid figure. */
  values: (number | null)[];
  /** Per value: the run was disturbed while it was measured (its figure is likely too low). */
  unstable: boolean[];
  /** Per value: the server refused or dropped part of the load, so the figure is not for all
   *  of it (e.g. `c-select` past FD_SETSIZE, serving fewer than it was given). */
  refused: boolean[];
  /** Per value: the figure's 95 % interval [low, high] (a repeated point's median interval, or
   *  where a single run's second run would land by its host's noise); null where it has none
   *  (no figure, calls per request, a single run's p99, noise not yet known). */
  intervals: ([number, number] | null)[];
}

/** The figure a point contributes: only a finished, valid run has one. */
export function pointFigure(point: SweepPoint | undefined, metric: SeriesMetric): number | null {
  if (point?.status !== 'done' || !point.valid) return null;
  const figure = point[metric];
  return figure ?? null;
}

const INTERVAL_OF = { qps: 'qps_interval', p99_us: 'p99_interval' } as const;

/** The interval of the figure a point contributes, when it has both. */
export function pointInterval(point: SweepPoint | undefined, metric: SeriesMetric): [number, number] | null {
  if (metric === 'calls_per_request' || pointFigure(point, metric) === null) return null;
  const interval = point?.[INTERVAL_OF[metric]];
  return interval ? [interval.low, interval.high] : null;
}

/** A point whose figures are not the server's undisturbed best: disturbed, or set by a
 *  saturated load generator (client-bound). Charts mark both alike. */
export function isUnstable(point: SweepPoint | undefined): boolean {
  return point?.status === 'done' && (point.stable === false || point.client_bound === true);
}

/** A finished point where the server did not take all the load: it dropped idle connections or
 *  the load met errors (refused, reset, timed out). Its figures describe what it chose to serve. */
export function refusedLoad(point: SweepPoint | undefined): boolean {
  return point?.status === 'done' && ((point.idle_dropped ?? 0) > 0 || (point.errors ?? 0) > 0);
}

export function seriesLines(sweep: SweepRequest, points: SweepPoint[], metric: SeriesMetric): SeriesLine[] {
  const at = new Map(points.map((p) => [`${p.server}@${p.value}`, p]));
  const each = (server: string, read: (p: SweepPoint | undefined) => boolean) =>
    sweep.values.map((value) => read(at.get(`${server}@${value}`)));
  return sweep.servers.map((server) => ({
    server,
    values: sweep.values.map((value) => pointFigure(at.get(`${server}@${value}`), metric)),
    unstable: each(server, isUnstable),
    refused: each(server, refusedLoad),
    intervals: sweep.values.map((value) => pointInterval(at.get(`${server}@${value}`), metric)),
  }));
}

/**
 * Each server's style index (see lib/chart `seriesStyle`): its place in the catalog, so that a
 * server looks the same on every chart of the page whatever else a chart compares; servers the
 * catalog does not list (or all, before it arrives) follow in the order given.
 */
export function serverStyleIndexes(servers: string[], catalog: readonly string[] | undefined): Map<string, number> {
  const known = catalog ?? [];
  const indexes = new Map<string, number>();
  let next = known.length;
  for (const server of servers) {
    const place = known.indexOf(server);
    indexes.set(server, place >= 0 ? place : next++);
  }
  return indexes;
}

/** The charts a series gets: a syscall profile's calls per request first, then its throughput
 *  (counting slows an event loop little: comparable with other counted runs); otherwise
 *  throughput and latency. */
export function chartMetrics(sweep: SweepRequest): SeriesMetric[] {
  return sweep.base?.profile === 'syscalls' ? ['calls_per_request', 'qps'] : ['qps', 'p99_us'];
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

/** Why a point has no figure, in a learner's words (its reasons are the server's, as they came). */
export function pointNote(point: SweepPoint, t: TFunction<'bench'>): string {
  switch (point.status) {
    case 'skipped':
      return t('point.notRun', { reason: point.reason ?? t('point.refused') });
    case 'failed':
    case 'cancelled':
      return point.reason ? t('point.because', { status: statusWord(point.status, t), reason: point.reason }) : statusWord(point.status, t);
    case 'done':
      return [
        point.valid ? '' : t('point.invalid', { reason: point.reason ?? '' }),
        point.stable === false ? t('point.unstable', { reason: point.unstable_reason ?? '' }) : '',
        point.client_bound ? t('point.clientBound') : '',
        point.valid && point.noisy ? t('point.noisy') : '',
      ]
        .filter(Boolean)
        .join(t('list.clauses'));
    default:
      return statusWord(point.status, t);
  }
}

const FINISHED: ReadonlySet<SweepPoint['status']> = new Set(['done', 'failed', 'cancelled', 'skipped']);

export interface SweepProgress {
  /** Points finished (done, failed, cancelled or skipped). */
  done: number;
  total: number;
  running: number;
  queued: number;
}

/** The run of the point a series is measuring or about to, as its own stream says it is. */
export interface LivePoint {
  runId: string;
  status: 'queued' | 'running';
}

/**
 * The point a running series' stream waits for: the first not finished, in the order they run
 * (the table lists them in that order), or null before the table has come.
 */
export function nextPoint(arrived: SweepPoint[], table: Sweep | null): SweepPoint | null {
  return table?.points.slice(arrived.length).find((p) => p.run_id !== null && !FINISHED.has(p.status)) ?? null;
}

/**
 * How far a series is: the points that arrived on its stream, and the newest table's statuses
 * for the rest (running, queued). `total` is what the request asked for, until a table says.
 * A table asked for just before a point arrived is a point behind: the counts never add up to
 * more than the total. `live`, the next point's own run stream, says at once when it leaves
 * the queue, where the table, asked for every few seconds, would lag.
 */
export function sweepProgress(total: number, arrived: SweepPoint[], table: Sweep | null, live: LivePoint | null = null): SweepProgress {
  const status = (p: SweepPoint) => (live !== null && p.run_id === live.runId && !FINISHED.has(p.status) ? live.status : p.status);
  const points = table?.points ?? [];
  const count = (of: SweepPoint['status']) => points.filter((p) => status(p) === of).length;
  const all = table ? points.length : total;
  const done = Math.min(all, Math.max(arrived.length, points.filter((p) => FINISHED.has(p.status)).length));
  const running = Math.min(count('running'), all - done);
  return { done, total: all, running, queued: Math.min(count('queued'), all - done - running) };
}

/** Where the next point's run is, for the counts: a run not yet started is queued. */
export function livePoint(run: RunState): LivePoint | null {
  // Until its stream has said anything the table knows better.
  if (run.runId === null || run.lastSeq === 0) return null;
  return { runId: run.runId, status: run.phase === 'queued' || run.phase === 'submitting' ? 'queued' : 'running' };
}

/** The running point as drawn before its figures come: the mean throughput and the newest p99
 *  of its newest phase's intervals (warm-up ones until its measurement has been drawn). */
export interface RunningMark {
  server: string;
  value: number;
  phase: 'warmup' | 'measure';
  qps: number;
  p99_us: number;
}

export function runningMark(point: SweepPoint, run: RunState): RunningMark | null {
  const newest = run.progress.at(-1);
  if (newest === undefined) return null;
  const phase = newest.phase === 'warmup' ? 'warmup' : 'measure';
  const intervals = run.progress.filter((p) => (p.phase === 'warmup' ? 'warmup' : 'measure') === phase);
  const qps = intervals.reduce((sum, p) => sum + p.qps, 0) / intervals.length;
  return { server: point.server, value: point.value, phase, qps, p99_us: newest.p99 };
}

/** "c-epoll, 1,000 connections" (or the server alone when nothing varies): a point in words. */
export function pointName(point: SweepPoint, sweep: SweepRequest, t: TFunction<'bench'>): string {
  return variesValue(sweep)
    ? t('progress.pointAt', { server: point.server, value: formatInt(point.value), field: variedName(sweep.vary, t) })
    : point.server;
}

/** "2 of 8 points done · 1 running · 5 queued" */
export function describeSweepProgress({ done, total, running, queued }: SweepProgress, t: TFunction<'bench'>): string {
  return [
    t('progress.done', { done, count: total, total: formatInt(total) }),
    running ? t('progress.running', { running }) : '',
    queued ? t('progress.queued', { queued }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * A running series in words: how many points are done and what the rest are doing, and where
 * the next point is ("… · now c-epoll at 1,000 (connections): measuring"), `next` its run.
 */
export function describeRunningSeries(
  sweep: SweepRequest,
  arrived: SweepPoint[],
  table: Sweep | null,
  next: { point: SweepPoint; run: RunState } | null,
  t: TFunction<'bench'>,
): string {
  const total = sweep.servers.length * sweep.values.length;
  const counts = describeSweepProgress(sweepProgress(total, arrived, table, next ? livePoint(next.run) : null), t);
  return next ? `${counts} · ${t('progress.now', { point: pointName(next.point, sweep, t), state: runStateLabel(next.run, t) })}` : counts;
}

/**
 * What a sweep's table was asked for, as far as drawing it needs (servers, the varied field and
 * values, and whether it counted system calls): the request the server sends with the table.
 */
export function sweepRequestOf(table: Sweep): SweepRequest {
  const { servers, vary, values, base } = table.request;
  return { servers, vary, values, base: base?.profile === 'syscalls' ? { profile: 'syscalls' } : {} };
}
