/**
 * Results picked from the history, side by side: every run (a sweep's points each count as
 * one) as a row of the same figures, for one chart and one table. Pure, for the view and tests.
 */
import type { TFunction } from 'i18next';

import type { Comparison, HostNoise, Run, Sweep } from '@/lib/api-schemas';
import { dateLocale } from '@/lib/dates';
import type { ExportTable } from '@/lib/export';
import { runInterval, runSpread } from '@/lib/verdict';

import { changeWords } from './round-comparison';
import { statusWord } from './words';

export interface CompareRow {
  /** Unique among the rows: the run's id, or the sweep's and the point's. */
  key: string;
  /** The run behind the row (a sweep's point's own), for the verdicts; null when it never ran. */
  runId: string | null;
  /** Its runner's run-to-run spread of QPS when it ran, if known. */
  noise: HostNoise | null;
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
  /** How it was profiled ('throughput': not at all): speeds compare only within one. */
  profile: string;
}

/** "24 Nov, 10:01" ("11月24日 10:01" in Chinese) for an ISO time; the text as is when it is not one. */
export function shortTime(iso: string | null | undefined, lng: string | undefined): string {
  if (!iso) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return time.toLocaleString(dateLocale(lng), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

const EMPTY = { qps: null, p50_us: null, p99_us: null, cpu_percent: null, rss_bytes: null, threads: null };

/** A run as a row; its label's time and its note in the interface's language (`lng`, `t`). */
export function runRow(run: Run, t: TFunction<'bench'>, lng: string | undefined): CompareRow {
  const label = `${run.server} · ${shortTime(run.created_at, lng)}`;
  const base = { key: run.id, runId: run.id, label, server: run.server, noise: run.result?.host_noise ?? null, profile: run.request.profile };
  if (run.status !== 'done') return { ...base, ...EMPTY, note: statusWord(run.status, t) };
  if (!run.result) return { ...base, ...EMPTY, note: t('compare.noResult') };
  const { summary, server, valid, invalid_reason: invalid, stable } = run.result;
  return {
    ...base,
    qps: valid ? summary.qps : null,
    p50_us: valid ? summary.latency_us.p50 : null,
    p99_us: valid ? summary.latency_us.p99 : null,
    cpu_percent: server?.cpu_percent_mean ?? null,
    rss_bytes: server?.profile?.rss_mean_bytes ?? null,
    threads: server?.profile?.threads_peak ?? server?.pids_peak ?? null,
    note: !valid
      ? t('compare.invalid', { reason: invalid ?? t('compare.seeRun') })
      : stable === false
        ? t('compare.disturbed')
        : null,
  };
}

/** "100 connections", "round 2": a point's value with what it counts. */
function pointAt(vary: Sweep['request']['vary'], value: number, t: TFunction<'bench'>): string {
  switch (vary) {
    case 'connections':
      return t('compare.at.connections', { count: value });
    case 'idle_connections':
      return t('compare.at.idleConnections', { count: value });
    case 'rate':
      return t('compare.at.rate', { value });
    case 'payload_bytes':
      return t('compare.at.payloadBytes', { count: value });
    case 'round':
      return t('compare.at.round', { value });
  }
}

/** A series' points as rows; their labels' time and notes in the interface's language. */
export function sweepRows(sweep: Sweep, t: TFunction<'bench'>, lng: string | undefined): CompareRow[] {
  const { vary } = sweep.request;
  const when = shortTime(sweep.created_at, lng);
  return sweep.points.map((point) => {
    const at = pointAt(vary, point.value, t);
    const figures = point.status === 'done' && point.valid;
    return {
      key: `${sweep.id}:${point.server}:${point.value}`,
      runId: point.run_id ?? null,
      noise: point.host_noise ?? null,
      label: `${point.server} @ ${at}${when ? ` · ${when}` : ''}`,
      server: point.server,
      profile: sweep.request.base?.profile ?? 'throughput',
      qps: figures ? (point.qps ?? null) : null,
      p50_us: figures ? (point.p50_us ?? null) : null,
      p99_us: figures ? (point.p99_us ?? null) : null,
      cpu_percent: point.cpu_percent ?? null,
      rss_bytes: point.rss_bytes ?? null,
      threads: point.threads ?? null,
      note:
        point.status !== 'done'
          ? (point.reason ?? statusWord(point.status, t))
          : !point.valid
            ? t('compare.invalid', { reason: point.reason ?? t('compare.seeSweep') })
            : point.stable === false || point.client_bound
              ? t('compare.disturbed')
              : null,
    };
  });
}

/** The run the others are compared with: the first row that ran and has figures. */
export function referenceRow(rows: CompareRow[]): CompareRow | undefined {
  return rows.find((r) => r.runId !== null && r.qps !== null);
}

/** The runs with figures to ask verdicts for, the reference first; none unless there are two. */
export function comparedRuns(rows: CompareRow[]): string[] {
  const reference = referenceRow(rows);
  if (!reference?.runId) return [];
  const others = rows.flatMap((r) => (r.runId && r.qps !== null ? [r.runId] : []));
  const ids = [...new Set([reference.runId, ...others])];
  return ids.length >= 2 ? ids : [];
}

/** A row's QPS 95 % range from its runner's run-to-run spread (lib/verdict), if known. */
export function rowSpread(noise: HostNoise | null): number | null {
  return noise === null ? null : runSpread(noise);
}

/**
 * A row's QPS against the reference's in words: the backend's verdict, or why there is none
 * ("the reference" for itself, "—" without figures to compare).
 */
export function verdictWords(row: CompareRow, reference: CompareRow | undefined, verdicts: Comparison[], t: TFunction<'bench'>): string {
  if (row.runId !== null && row.runId === reference?.runId) return t('compare.verdict.reference');
  if (reference && row.profile !== reference.profile) return t('compare.verdict.otherProfile', { profile: row.profile, reference: reference.profile });
  const verdict = verdicts.find((v) => v.subject === row.runId);
  if (!verdict) return '—';
  if (verdict.call === 'too_few') return t('compare.verdict.noNoise');
  return changeWords(verdict, t);
}

/** The comparison as an export: one row per result, its figures raw (µs, bytes, % of one core),
 *  its verdict against the reference in words. */
export function compareTable(rows: CompareRow[], verdictOf: (row: CompareRow) => string): ExportTable {
  return {
    columns: ['result', 'server', 'qps', 'qps_run_to_run_95', 'qps_low_95', 'qps_high_95', 'p50_us', 'p99_us', 'cpu_percent_of_one_core', 'rss_bytes', 'threads', 'against_reference', 'note'],
    rows: rows.map((r) => {
      // Where a second run would land (95 %), as the chart's whiskers draw it.
      const interval = r.qps !== null && r.noise ? runInterval(r.qps, r.noise) : null;
      return [r.label, r.server, r.qps, rowSpread(r.noise), interval?.[0] ?? null, interval?.[1] ?? null, r.p50_us, r.p99_us, r.cpu_percent, r.rss_bytes, r.threads, verdictOf(r), r.note];
    }),
  };
}
