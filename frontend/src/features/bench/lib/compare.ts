/**
 * Results picked from the history, side by side: every run (a sweep's points each count as
 * one) as a row of the same figures, for one chart and one table. Pure, for the view and tests.
 */
import type { Run, Sweep } from '@/lib/api-schemas';
import type { ExportTable } from '@/lib/export';

export interface CompareRow {
  /** Unique among the rows: the run's id, or the sweep's and the point's. */
  key: string;
  label: string;
  server: string;
  qps: number | null;
  p50_us: number | null;
  p99_us: number | null;
  cpu_percent: number | null;
  rss_bytes: number | null;
  threads: number | null;
  /** Why the figures are missing or doubtful (failed, invalid, disturbed), or null. */
  note: string | null;
}

const stamp = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/** "24 Nov, 10:01" for an ISO time; the text as is when it is not one. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : stamp.format(time);
}

const EMPTY = { qps: null, p50_us: null, p99_us: null, cpu_percent: null, rss_bytes: null, threads: null };

export function runRow(run: Run): CompareRow {
  const label = `${run.server} · ${shortTime(run.created_at)}`;
  const base = { key: run.id, label, server: run.server };
  if (run.status !== 'done') return { ...base, ...EMPTY, note: run.status === 'failed' ? 'failed' : run.status };
  if (!run.result) return { ...base, ...EMPTY, note: 'no result recorded' };
  const { summary, server, valid, invalid_reason: invalid, stable } = run.result;
  return {
    ...base,
    qps: valid ? summary.qps : null,
    p50_us: valid ? summary.latency_us.p50 : null,
    p99_us: valid ? summary.latency_us.p99 : null,
    cpu_percent: server?.cpu_percent_mean ?? null,
    rss_bytes: server?.profile?.rss_mean_bytes ?? null,
    threads: server?.profile?.threads_peak ?? server?.pids_peak ?? null,
    note: !valid ? `invalid: ${invalid ?? 'see the run'}` : stable === false ? 'disturbed while measured' : null,
  };
}

const VARIED_UNITS: Record<string, string> = {
  connections: 'connections',
  idle_connections: 'idle connections',
  rate: 'requests/s',
  payload_bytes: 'bytes',
};

export function sweepRows(sweep: Sweep): CompareRow[] {
  const { vary } = sweep.request;
  const when = shortTime(sweep.created_at);
  return sweep.points.map((point) => {
    const at = `${point.value} ${VARIED_UNITS[vary] ?? vary}`;
    const figures = point.status === 'done' && point.valid;
    return {
      key: `${sweep.id}:${point.server}:${point.value}`,
      label: `${point.server} @ ${at}${when ? ` · ${when}` : ''}`,
      server: point.server,
      qps: figures ? (point.qps ?? null) : null,
      p50_us: figures ? (point.p50_us ?? null) : null,
      p99_us: figures ? (point.p99_us ?? null) : null,
      cpu_percent: point.cpu_percent ?? null,
      rss_bytes: point.rss_bytes ?? null,
      threads: point.threads ?? null,
      note:
        point.status !== 'done'
          ? (point.reason ?? point.status)
          : !point.valid
            ? `invalid: ${point.reason ?? 'see the sweep'}`
            : point.stable === false || point.client_bound
              ? 'disturbed while measured'
              : null,
    };
  });
}

/** The comparison as an export: one row per result, its figures raw (µs, bytes, % of one core). */
export function compareTable(rows: CompareRow[]): ExportTable {
  return {
    columns: ['result', 'server', 'qps', 'p50_us', 'p99_us', 'cpu_percent_of_one_core', 'rss_bytes', 'threads', 'note'],
    rows: rows.map((r) => [r.label, r.server, r.qps, r.p50_us, r.p99_us, r.cpu_percent, r.rss_bytes, r.threads, r.note]),
  };
}
