/**
 * The bench's results as tables to export (src/lib/export.ts writes them as CSV, JSON or
 * Markdown): figures in base units (µs, bytes, req/s) named in the column or field, columns
 * named by server id, rounded to what the measurement can tell.
 */
import type { TFunction } from 'i18next';

import type { NamedTable } from '@/components/export-menu';
import type { DoneEvent, SweepPoint } from '@/lib/api-schemas';
import type { Cell, ExportTable } from '@/lib/export';
import { runInterval } from '@/lib/verdict';

import type { SweepRequest } from './experiment-block';
import { pointNote } from './series';

function round(value: number | null | undefined, digits: number): number | null {
  if (value == null || !Number.isFinite(value)) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** One field of a run's results: its name in the export and how to read it from a result. */
type RunField = [name: string, read: (r: DoneEvent) => Cell | undefined];

const RUN_FIELDS: RunField[] = [
  ['qps', (r) => round(r.summary.qps, 1)],
  ['requests', (r) => r.summary.requests],
  ['duration_s', (r) => round(r.summary.duration_s, 2)],
  ['latency_p50_us', (r) => round(r.summary.latency_us.p50, 1)],
  ['latency_p90_us', (r) => round(r.summary.latency_us.p90, 1)],
  ['latency_p99_us', (r) => round(r.summary.latency_us.p99, 1)],
  ['latency_p999_us', (r) => round(r.summary.latency_us.p999, 1)],
  ['latency_max_us', (r) => round(r.summary.latency_us.max, 1)],
  ['errors', (r) => r.summary.error_total],
  ['repetitions', (r) => r.aggregate?.count],
  // Where a second run would land (95 %), from the host's run-to-run spread, when known.
  ['qps_low_95', (r) => (r.host_noise ? round(runInterval(r.summary.qps, r.host_noise)[0], 1) : null)],
  ['qps_high_95', (r) => (r.host_noise ? round(runInterval(r.summary.qps, r.host_noise)[1], 1) : null)],
  ['qps_spread', (r) => round(r.aggregate?.qps.spread, 4)],
  ['qps_repetitions_min', (r) => (r.aggregate && r.aggregate.count > 1 ? round(r.aggregate.qps.min, 1) : null)],
  ['qps_repetitions_max', (r) => (r.aggregate && r.aggregate.count > 1 ? round(r.aggregate.qps.max, 1) : null)],
  ['open_loop_target_qps', (r) => round(r.summary.open_loop?.target_qps, 1)],
  ['open_loop_achieved_qps', (r) => round(r.summary.open_loop?.achieved_qps, 1)],
  ['idle_connections_open', (r) => r.summary.idle?.open_at_start],
  ['idle_connections_dropped', (r) => r.summary.idle?.dropped],
  ['server_cpu_percent_mean', (r) => round(r.server?.cpu_percent_mean, 1)],
  ['server_memory_peak_bytes', (r) => r.server?.memory_peak_bytes],
  ['server_pids_peak', (r) => r.server?.pids_peak],
  ['server_threads_peak', (r) => r.server?.profile?.threads_peak],
  ['server_rss_mean_bytes', (r) => round(r.server?.profile?.rss_mean_bytes, 0)],
  ['voluntary_ctxt_switches_per_s', (r) => round(r.server?.profile?.voluntary_ctxt_switches_per_s, 0)],
  ['nonvoluntary_ctxt_switches_per_s', (r) => round(r.server?.profile?.nonvoluntary_ctxt_switches_per_s, 0)],
  ['syscalls_per_request', (r) => round(r.syscalls?.calls_per_request, 2)],
  ['valid', (r) => r.valid],
  ['invalid_reason', (r) => r.invalid_reason],
  ['stable', (r) => r.stable],
  ['unstable_reason', (r) => r.unstable_reason],
  ['client_bound', (r) => r.client?.bound],
];

/**
 * Runs side by side: a `field` column, then one column per run named by its server id (or a
 * name the caller gives, when two runs share a server). Fields no run has are left out.
 */
export function runTable(runs: { name: string; result: DoneEvent }[]): ExportTable {
  const rows = RUN_FIELDS.map(([field, read]) => [field, ...runs.map((run) => read(run.result) ?? null)]);
  return { columns: ['field', ...runs.map((run) => run.name)], rows: rows.filter((row) => row.slice(1).some((cell) => cell !== null)) };
}

/** The figures a series can be exported by, one table each: [field, label's key, digits]. */
type PointFigure = 'qps' | 'p50_us' | 'p99_us' | 'calls_per_request' | 'cpu_percent' | 'rss_bytes' | 'threads';

const SERIES_METRICS = [
  ['qps', 'export.series.qps', 1],
  ['p50_us', 'export.series.p50', 1],
  ['p99_us', 'export.series.p99', 1],
  ['calls_per_request', 'export.series.callsPerRequest', 2],
  ['cpu_percent', 'export.series.cpu', 1],
  ['rss_bytes', 'export.series.rss', 0],
  ['threads', 'export.series.threads', 0],
] as const satisfies readonly (readonly [PointFigure, string, number])[];

/** Like the charts: only a finished, valid run has a figure. */
function validFigure(point: SweepPoint | undefined, field: PointFigure): number | null {
  if (point?.status !== 'done' || !point.valid) return null;
  return point[field] ?? null;
}

/** The figures a point carries a 95 % interval for, and where. */
const INTERVAL_OF: Partial<Record<PointFigure, 'qps_interval' | 'p99_interval'>> = { qps: 'qps_interval', p99_us: 'p99_interval' };

/** A valid point's interval of `field` as [low, high], as the charts' whiskers draw it. */
function validInterval(point: SweepPoint | undefined, field: PointFigure): [number, number] | null {
  const key = INTERVAL_OF[field];
  if (!key || validFigure(point, field) === null) return null;
  const interval = point?.[key];
  return interval ? [interval.low, interval.high] : null;
}

/** A figure's columns for one server: its value, and its interval's ends when the series has any. */
function serverColumns(server: string, withIntervals: boolean): string[] {
  return withIntervals ? [server, `${server}_low_95`, `${server}_high_95`] : [server];
}

/**
 * A series as tables: one per figure with the varied value first and a column per server
 * (`connections,c-epoll,c-poll`), only valid points' figures, as the charts draw them, each
 * followed by its 95 % interval's ends (`c-epoll_low_95`, `c-epoll_high_95`) when any point
 * has one; then
 * every point as a row with its status and note. Figures no point has are left out. Columns
 * are named for programs (ids, base units); the tables' labels and the notes for people.
 */
export function seriesTables(sweep: SweepRequest, points: SweepPoint[], t: TFunction<'bench'>): NamedTable[] {
  const at = new Map(points.map((p) => [`${p.server}@${p.value}`, p]));
  const byMetric = SERIES_METRICS.map(([field, label, digits]): NamedTable => {
    const intervals = points.some((p) => validInterval(p, field) !== null);
    const cells = (point: SweepPoint | undefined): Cell[] => {
      const figure = round(validFigure(point, field), digits);
      if (!intervals) return [figure];
      const interval = validInterval(point, field);
      return [figure, round(interval?.[0], digits), round(interval?.[1], digits)];
    };
    return {
      what: field,
      label: t(label),
      table: {
        columns: [sweep.vary, ...sweep.servers.flatMap((server) => serverColumns(server, intervals))],
        rows: sweep.values.map((value) => [value, ...sweep.servers.flatMap((server) => cells(at.get(`${server}@${value}`)))]),
      },
    };
  }).filter((t) => t.table.rows.some((row) => row.slice(1).some((cell) => cell !== null)));

  const every: NamedTable = {
    what: 'points',
    label: t('export.series.points'),
    table: {
      columns: ['server', sweep.vary, 'status', ...SERIES_METRICS.map(([field]) => field), 'qps_low_95', 'qps_high_95', 'p99_low_95', 'p99_high_95', 'qps_spread', 'valid', 'stable', 'note'],
      rows: points.map((p) => [
        p.server,
        p.value,
        p.status,
        ...SERIES_METRICS.map(([field, , digits]) => round(p[field], digits)),
        round(p.qps_interval?.low, 1),
        round(p.qps_interval?.high, 1),
        round(p.p99_interval?.low, 1),
        round(p.p99_interval?.high, 1),
        round(p.spread, 4),
        p.valid ?? null,
        p.stable ?? null,
        pointNote(p, t) || null,
      ]),
    },
  };
  return [...byMetric, every];
}
