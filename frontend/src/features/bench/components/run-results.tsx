import type { ReactNode } from 'react';

import type { Aggregate, Client, DoneEvent, Summary, Syscalls } from '@/lib/api-schemas';
import { formatCount, formatInt, formatLatencyUs, formatMiB, formatPercent, formatQps } from '@/lib/format';

import { stabilityFigures } from '../lib/stability';

import { ClampedNote } from './clamped-note';

const SYSCALL_ROWS = 8;

/** One run's figures in the table: the learner's run, or the recorded reference beside it. */
export interface ResultColumn {
  /** The column's heading; null for a table of one run (no heading row). */
  label: string | null;
  result: DoneEvent;
  /** The recorded reference: its cells' test ids end in `-reference`. */
  reference?: boolean;
}

interface Cell {
  content: ReactNode;
  tone?: 'ok' | 'bad' | undefined;
}

interface Row {
  name: string;
  testId?: string;
  /** The row's cell for one result; null where the result has nothing for it. */
  cell: (result: DoneEvent) => Cell | null;
}

/** (max − min) / median; optional in the generated contract. */
function spreadOf(qps: { spread?: number | null }): number {
  return qps.spread ?? 0;
}

/** Errors by kind; optional in the generated contract. */
function errorsByKind(summary: { errors?: Record<string, number> | null }): Record<string, number> {
  return summary.errors ?? {};
}

/** Repetitions: the median and how far they disagreed; a spread over the threshold is noisy. */
function repetitions({ qps, noisy, noisy_threshold: threshold, count }: Aggregate): Cell {
  return {
    tone: noisy ? 'bad' : undefined,
    content: (
      <>
        median of {count}: {formatQps(qps.median)} req/s (from {formatQps(qps.min)} to {formatQps(qps.max)}), spread{' '}
        {formatPercent(spreadOf(qps) * 100)}
        {noisy ? (
          <strong data-testid="run-noisy">
            {' '}
            — noisy: the repetitions disagree by more than {formatPercent(threshold * 100)}; treat the figure with care
            or run again on a quieter machine
          </strong>
        ) : null}
      </>
    ),
  };
}

/** Open loop: the rate asked for and achieved, and the latencies the headline does not show. */
function openLoop(openLoop: NonNullable<Summary['open_loop']>): Cell {
  return {
    tone: openLoop.short_of_target ? 'bad' : undefined,
    content: (
      <>
        target {formatQps(openLoop.target_qps)} req/s, achieved {formatQps(openLoop.achieved_qps)} (
        {formatPercent(openLoop.achieved_fraction * 100)}). Latency above counts from each request&apos;s intended
        send time; from the actual send p99 is {formatLatencyUs(openLoop.latency_actual_us.p99)}, and requests left
        p99 {formatLatencyUs(openLoop.send_lag_us.p99)} late.
      </>
    ),
  };
}

/** One call's share per request, with how many of them failed where that was counted. */
function callShare(row: Syscalls['rows'][number]): string {
  const failed = row.errors ? ` (${Math.round((100 * row.errors) / row.calls)} % failed)` : '';
  return `${row.syscall} ${row.per_request.toFixed(2)}${failed}`;
}

/** The syscall profile: the most frequent calls, per request served, counted without ptrace. */
function syscalls(syscalls: Syscalls): Cell {
  if (syscalls.refused != null || syscalls.calls_per_request == null) {
    return { content: <>Not counted: {syscalls.refused ?? 'no counts'}</> };
  }
  return {
    content: (
      <>
        {syscalls.calls_per_request.toFixed(2)} per request ({formatCount(syscalls.requests ?? 0, 'request')}, counted
        by perf&apos;s tracepoints; they slow a server that forks or starts a thread per connection):{' '}
        {syscalls.rows.slice(0, SYSCALL_ROWS).map(callShare).join(' · ')}
      </>
    ),
  };
}

/** Whether anything disturbed the run while it was measured, and the figures that say so.
 *  Results recorded before the runner checked this have no row. */
function stability(result: DoneEvent): Cell | null {
  if (result.stable == null) return null;
  const figures = stabilityFigures(result.interference, result.drift);
  return {
    tone: result.stable ? 'ok' : 'bad',
    content: (
      <>
        {result.stable ? 'stable' : <ClampedNote text={`unstable: ${result.unstable_reason ?? 'no reason given'}`} />}
        {figures ? (
          <span className="run-results__figures" data-testid="run-stability-figures">
            {' '}
            ({figures})
          </span>
        ) : null}
      </>
    ),
  };
}

/** The load generator's side: its engine and how busy it was; client-bound, shown like
 *  unstable, when it was saturated and the server was not. */
function loadGenerator(client: Client): Cell {
  const figures = [
    client.engine ? `${client.engine} engine` : null,
    client.cpu != null ? `${formatPercent(client.cpu * 100)} of its CPUs` : null,
  ].filter(Boolean);
  return {
    tone: client.bound ? 'bad' : undefined,
    content: (
      <>
        {client.bound ? `client-bound: ${client.reason ?? 'this measures the load generator'}` : figures.join(' · ')}
        {client.engine_note ? <span className="run-results__figures"> ({client.engine_note})</span> : null}
      </>
    ),
  };
}

function errors(summary: Summary): Cell {
  const kinds = Object.entries(errorsByKind(summary)).filter(([, n]) => n > 0);
  const detail = kinds.length ? ` (${kinds.map(([kind, n]) => `${kind} ${formatInt(n)}`).join(', ')})` : '';
  return {
    tone: summary.error_total > 0 ? 'bad' : undefined,
    content: summary.error_total === 0 ? 'none' : `${formatInt(summary.error_total)}${detail}`,
  };
}

/** How busy the server was: CPU as docker stats counts it, 100 % per core. */
function serverCpu(server: NonNullable<DoneEvent['server']>): Cell | null {
  if (server.cpu_percent_mean == null) return null;
  return { content: `${formatPercent(server.cpu_percent_mean)} of one core, mean while measuring` };
}

/** Two memory figures that measure different things, each saying what. */
function serverMemory(server: NonNullable<DoneEvent['server']>): Cell | null {
  const parts: ReactNode[] = [];
  if (server.memory_peak_bytes != null) {
    parts.push(
      <span key="peak">
        container peak {formatMiB(server.memory_peak_bytes)}{' '}
        <span className="run-results__figures">
          (what the kernel charged the server&apos;s container, reclaimable page cache left out; the highest sample,
          about one a second)
        </span>
      </span>,
    );
  }
  const rss = server.profile?.rss_mean_bytes;
  if (rss != null) {
    parts.push(
      <span key="rss">
        resident {formatMiB(rss)}{' '}
        <span className="run-results__figures">
          (the server processes&apos; RSS added up, mean while measuring; pages they share count once per process)
        </span>
      </span>,
    );
  }
  if (!parts.length) return null;
  return { content: parts.flatMap((part, i) => (i ? [' · ', part] : [part])) };
}

function serverProcesses(server: NonNullable<DoneEvent['server']>): Cell | null {
  const profile = server.profile;
  const parts = [
    server.pids_peak != null ? `${formatCount(server.pids_peak, 'process or thread', 'processes and threads')} at peak` : null,
    profile?.threads_peak != null ? formatCount(profile.threads_peak, 'thread') : null,
    profile?.voluntary_ctxt_switches_per_s != null
      ? `context switches ${formatInt(profile.voluntary_ctxt_switches_per_s)}/s voluntary, ${formatInt(
          profile.nonvoluntary_ctxt_switches_per_s ?? 0,
        )}/s involuntary`
      : null,
  ].filter(Boolean);
  return parts.length ? { content: parts.join(' · ') } : null;
}

const ROWS: Row[] = [
  {
    name: 'Throughput',
    cell: ({ summary }) => ({
      content: (
        <>
          <strong>{formatQps(summary.qps)}</strong> req/s ({formatCount(summary.requests, 'request')} in{' '}
          {summary.duration_s.toFixed(1)} s)
        </>
      ),
    }),
  },
  {
    name: 'Latency',
    cell: ({ summary: { latency_us: l } }) => ({
      content: `p50 ${formatLatencyUs(l.p50)} · p99 ${formatLatencyUs(l.p99)} · p99.9 ${formatLatencyUs(l.p999)} · max ${formatLatencyUs(l.max)}`,
    }),
  },
  { name: 'Errors', cell: ({ summary }) => errors(summary) },
  {
    name: 'Repetitions',
    testId: 'run-repetitions',
    cell: ({ aggregate }) => (aggregate && aggregate.count > 1 ? repetitions(aggregate) : null),
  },
  { name: 'Open loop', testId: 'run-open-loop', cell: ({ summary }) => (summary.open_loop ? openLoop(summary.open_loop) : null) },
  {
    name: 'Idle connections',
    cell: ({ summary: { idle } }) =>
      idle && idle.requested > 0
        ? {
            tone: idle.dropped > 0 ? 'bad' : undefined,
            content: `${formatInt(idle.open_at_start)} of ${formatInt(idle.requested)} open at the start; ${formatInt(
              idle.dropped,
            )} dropped by the server during the run`,
          }
        : null,
  },
  { name: 'Server CPU', cell: ({ server }) => (server ? serverCpu(server) : null) },
  { name: 'Server memory', testId: 'run-memory', cell: ({ server }) => (server ? serverMemory(server) : null) },
  { name: 'Server processes', cell: ({ server }) => (server ? serverProcesses(server) : null) },
  { name: 'System calls', testId: 'run-syscalls', cell: (result) => (result.syscalls ? syscalls(result.syscalls) : null) },
  {
    name: 'Validity',
    testId: 'run-validity',
    cell: (result) => ({
      tone: result.valid ? 'ok' : 'bad',
      content: result.valid ? 'valid' : <ClampedNote text={`invalid: ${result.invalid_reason ?? 'no reason given'}`} />,
    }),
  },
  { name: 'Stability', testId: 'run-stability', cell: stability },
  { name: 'Load generator', testId: 'run-client', cell: (result) => (result.client ? loadGenerator(result.client) : null) },
];

const TONE_CLASS = { ok: 'run-results__ok', bad: 'run-results__bad' } as const;

type RunResultsProps = { columns: ResultColumn[] } | { result: DoneEvent };

/**
 * The final figures of a finished run as a small table: a row per figure, a column per run
 * (the learner's and the recorded reference beside it, when both are shown).
 */
export function RunResults(props: RunResultsProps) {
  const columns = 'columns' in props ? props.columns : [{ label: null, result: props.result }];
  const headed = columns.some((c) => c.label !== null);
  const rows = ROWS.map((row) => ({ row, cells: columns.map((c) => row.cell(c.result)) })).filter(({ cells }) =>
    cells.some((cell) => cell !== null),
  );

  return (
    <div className="run-results__scroll">
      <table className="run-results" data-testid="run-results">
        <caption>Results</caption>
        {headed ? (
          <thead>
            <tr>
              <td />
              {columns.map((c, i) => (
                <th key={i} scope="col" className={c.reference ? 'run-results__reference' : undefined}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>
          {rows.map(({ row, cells }) => (
            <tr key={row.name}>
              <th scope="row">{row.name}</th>
              {columns.map((column, i) => {
                const cell = cells[i] ?? null;
                const classes = [cell?.tone ? TONE_CLASS[cell.tone] : null, column.reference ? 'run-results__reference' : null];
                return (
                  <td
                    key={i}
                    data-testid={row.testId ? `${row.testId}${column.reference ? '-reference' : ''}` : undefined}
                    className={classes.filter(Boolean).join(' ') || undefined}
                  >
                    {cell ? cell.content : '—'}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
