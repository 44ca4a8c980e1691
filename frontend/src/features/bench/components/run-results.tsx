import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import type { Aggregate, Client, DoneEvent, Summary, Syscalls } from '@/lib/api-schemas';
import { formatCalls, formatInt, formatLatencyUs, formatMiB, formatPercent, formatQps } from '@/lib/format';
import { pairSpread } from '@/lib/verdict';

import { stabilityFigures } from '../lib/stability';

import { ClampedNote } from './clamped-note';

const SYSCALL_ROWS = 8;

type T = TFunction<'bench'>;

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
  /** The row's heading, as its key under `results.rows`. */
  name: 'throughput' | 'latency' | 'errors' | 'repetitions' | 'hostNoise' | 'openLoop' | 'idle' | 'serverCpu' | 'serverMemory' | 'serverProcesses' | 'syscalls' | 'validity' | 'stability' | 'loadGenerator';
  testId?: string;
  /** The row's cell for one result; null where the result has nothing for it. */
  cell: (result: DoneEvent, t: T) => Cell | null;
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
function repetitions({ qps, noisy, noisy_threshold: threshold, count }: Aggregate, t: T): Cell {
  return {
    tone: noisy ? 'bad' : undefined,
    content: (
      <>
        {t('results.repetitions', {
          count,
          median: formatQps(qps.median),
          min: formatQps(qps.min),
          max: formatQps(qps.max),
          spread: formatPercent(spreadOf(qps) * 100),
        })}
        {noisy ? (
          <strong data-testid="run-noisy">
            {' '}
            {t('results.noisy', { threshold: formatPercent(threshold * 100) })}
          </strong>
        ) : null}
      </>
    ),
  };
}

/** This host's run-to-run spread beside a run's figure: how far a second run of the same could
 *  land without anything having changed (two runs each scattering by sigma: ±t·sigma·√2). */
function hostNoise(noise: NonNullable<DoneEvent['host_noise']>, t: T): Cell {
  return {
    content: t('results.hostNoise', {
      sigma: formatPercent(noise.sigma * 100),
      count: noise.runs,
      runs: formatInt(noise.runs),
      pair: formatPercent(pairSpread(noise) * 100),
    }),
  };
}

/** Open loop: the rate asked for and achieved, and the latencies the headline does not show. */
function openLoop(openLoop: NonNullable<Summary['open_loop']>, t: T): Cell {
  return {
    tone: openLoop.short_of_target ? 'bad' : undefined,
    content: t('results.openLoop', {
      target: formatQps(openLoop.target_qps),
      achieved: formatQps(openLoop.achieved_qps),
      fraction: formatPercent(openLoop.achieved_fraction * 100),
      actualP99: formatLatencyUs(openLoop.latency_actual_us.p99),
      lagP99: formatLatencyUs(openLoop.send_lag_us.p99),
    }),
  };
}

/** One call's share per request, with how many of them failed where that was counted. */
function callShare(row: Syscalls['rows'][number], t: T): string {
  const share = `${row.syscall} ${formatCalls(row.per_request)}`;
  return row.errors ? t('results.syscallFailed', { share, percent: Math.round((100 * row.errors) / row.calls) }) : share;
}

/** The syscall profile: the most frequent calls, per request served, counted without ptrace. */
function syscalls(syscalls: Syscalls, t: T): Cell {
  if (syscalls.refused != null || syscalls.calls_per_request == null) {
    return { content: t('results.notCounted', { reason: syscalls.refused ?? t('results.noCounts') }) };
  }
  const requests = syscalls.requests ?? 0;
  return {
    content: t('results.syscalls', {
      perRequest: formatCalls(syscalls.calls_per_request),
      count: requests,
      requests: formatInt(requests),
      calls: syscalls.rows
        .slice(0, SYSCALL_ROWS)
        .map((row) => callShare(row, t))
        .join(' · '),
    }),
  };
}

/** Whether anything disturbed the run while it was measured, and the figures that say so.
 *  Results recorded before the runner checked this have no row. */
function stability(result: DoneEvent, t: T): Cell | null {
  if (result.stable == null) return null;
  const figures = stabilityFigures(result.interference, result.drift, t);
  return {
    tone: result.stable ? 'ok' : 'bad',
    content: (
      <>
        {result.stable ? (
          t('results.stable')
        ) : (
          <ClampedNote text={t('results.unstable', { reason: result.unstable_reason ?? t('results.noReason') })} />
        )}
        {figures ? (
          <span className="run-results__figures" data-testid="run-stability-figures">
            {t('results.aside', { aside: figures })}
          </span>
        ) : null}
      </>
    ),
  };
}

/** The load generator's side: its engine and how busy it was; client-bound, shown like
 *  unstable, when it was saturated and the server was not. */
function loadGenerator(client: Client, t: T): Cell {
  const figures = [
    client.engine ? t('results.engine', { engine: client.engine }) : null,
    client.cpu != null ? t('results.clientCpu', { cpu: formatPercent(client.cpu * 100) }) : null,
  ].filter(Boolean);
  return {
    tone: client.bound ? 'bad' : undefined,
    content: (
      <>
        {client.bound ? t('results.clientBound', { reason: client.reason ?? t('results.measuresLoadGenerator') }) : figures.join(' · ')}
        {client.engine_note ? <span className="run-results__figures"> ({client.engine_note})</span> : null}
      </>
    ),
  };
}

function errors(summary: Summary, t: T): Cell {
  const kinds = Object.entries(errorsByKind(summary)).filter(([, n]) => n > 0);
  const detail = kinds.length ? ` (${kinds.map(([kind, n]) => `${kind} ${formatInt(n)}`).join(', ')})` : '';
  return {
    tone: summary.error_total > 0 ? 'bad' : undefined,
    content: summary.error_total === 0 ? t('results.noErrors') : `${formatInt(summary.error_total)}${detail}`,
  };
}

/** How busy the server was: CPU as docker stats counts it, 100 % per core. */
function serverCpu(server: NonNullable<DoneEvent['server']>, t: T): Cell | null {
  if (server.cpu_percent_mean == null) return null;
  return { content: t('results.serverCpu', { cpu: formatPercent(server.cpu_percent_mean) }) };
}

/** Two memory figures that measure different things, each saying what. */
function serverMemory(server: NonNullable<DoneEvent['server']>, t: T): Cell | null {
  const parts: ReactNode[] = [];
  if (server.memory_peak_bytes != null) {
    parts.push(
      <span key="peak">
        {t('results.containerPeak', { peak: formatMiB(server.memory_peak_bytes) })}
        <span className="run-results__figures">{t('results.aside', { aside: t('results.containerPeakMeans') })}</span>
      </span>,
    );
  }
  const rss = server.profile?.rss_mean_bytes;
  if (rss != null) {
    parts.push(
      <span key="rss">
        {t('results.resident', { rss: formatMiB(rss) })}
        <span className="run-results__figures">{t('results.aside', { aside: t('results.residentMeans') })}</span>
      </span>,
    );
  }
  if (!parts.length) return null;
  return { content: parts.flatMap((part, i) => (i ? [' · ', part] : [part])) };
}

function serverProcesses(server: NonNullable<DoneEvent['server']>, t: T): Cell | null {
  const profile = server.profile;
  const parts = [
    server.pids_peak != null ? t('results.pidsPeak', { count: server.pids_peak, pids: formatInt(server.pids_peak) }) : null,
    profile?.threads_peak != null ? t('results.threads', { count: profile.threads_peak, threads: formatInt(profile.threads_peak) }) : null,
    profile?.voluntary_ctxt_switches_per_s != null
      ? t('results.contextSwitches', {
          voluntary: formatInt(profile.voluntary_ctxt_switches_per_s),
          involuntary: formatInt(profile.nonvoluntary_ctxt_switches_per_s ?? 0),
        })
      : null,
  ].filter(Boolean);
  return parts.length ? { content: parts.join(' · ') } : null;
}

const ROWS: Row[] = [
  {
    name: 'throughput',
    cell: ({ summary }, t) => ({
      content: (
        <Trans
          t={t}
          i18nKey="results.throughput"
          values={{
            qps: formatQps(summary.qps),
            count: summary.requests,
            requests: formatInt(summary.requests),
            seconds: summary.duration_s.toFixed(1),
          }}
          components={{ strong: <strong /> }}
        />
      ),
    }),
  },
  {
    name: 'latency',
    cell: ({ summary: { latency_us: l } }, t) => ({
      content: t('results.latency', {
        p50: formatLatencyUs(l.p50),
        p99: formatLatencyUs(l.p99),
        p999: formatLatencyUs(l.p999),
        max: formatLatencyUs(l.max),
      }),
    }),
  },
  { name: 'errors', cell: ({ summary }, t) => errors(summary, t) },
  {
    name: 'repetitions',
    testId: 'run-repetitions',
    cell: ({ aggregate }, t) => (aggregate && aggregate.count > 1 ? repetitions(aggregate, t) : null),
  },
  { name: 'hostNoise', testId: 'run-host-noise', cell: ({ host_noise: noise }, t) => (noise ? hostNoise(noise, t) : null) },
  { name: 'openLoop', testId: 'run-open-loop', cell: ({ summary }, t) => (summary.open_loop ? openLoop(summary.open_loop, t) : null) },
  {
    name: 'idle',
    cell: ({ summary: { idle } }, t) =>
      idle && idle.requested > 0
        ? {
            tone: idle.dropped > 0 ? 'bad' : undefined,
            content: t('results.idle', {
              open: formatInt(idle.open_at_start),
              requested: formatInt(idle.requested),
              dropped: formatInt(idle.dropped),
            }),
          }
        : null,
  },
  { name: 'serverCpu', cell: ({ server }, t) => (server ? serverCpu(server, t) : null) },
  { name: 'serverMemory', testId: 'run-memory', cell: ({ server }, t) => (server ? serverMemory(server, t) : null) },
  { name: 'serverProcesses', cell: ({ server }, t) => (server ? serverProcesses(server, t) : null) },
  { name: 'syscalls', testId: 'run-syscalls', cell: (result, t) => (result.syscalls ? syscalls(result.syscalls, t) : null) },
  {
    name: 'validity',
    testId: 'run-validity',
    cell: (result, t) => ({
      tone: result.valid ? 'ok' : 'bad',
      content: result.valid ? (
        t('results.valid')
      ) : (
        <ClampedNote text={t('results.invalid', { reason: result.invalid_reason ?? t('results.noReason') })} />
      ),
    }),
  },
  { name: 'stability', testId: 'run-stability', cell: stability },
  { name: 'loadGenerator', testId: 'run-client', cell: (result, t) => (result.client ? loadGenerator(result.client, t) : null) },
];

const TONE_CLASS = { ok: 'run-results__ok', bad: 'run-results__bad' } as const;

/** A cell's classes: its tone, and the reference's quieter look. */
function cellClass(cell: Cell | null, reference: boolean | undefined): string | undefined {
  const classes = [cell?.tone ? TONE_CLASS[cell.tone] : null, reference ? 'run-results__reference' : null];
  return classes.filter(Boolean).join(' ') || undefined;
}

type RunResultsProps = { columns: ResultColumn[] } | { result: DoneEvent };

/**
 * The final figures of a finished run as a small table: a row per figure, a column per run
 * (the learner's and the recorded reference beside it, when both are shown).
 */
export function RunResults(props: RunResultsProps) {
  const { t } = useTranslation('bench');
  const columns = 'columns' in props ? props.columns : [{ label: null, result: props.result }];
  const headed = columns.some((c) => c.label !== null);
  const rows = ROWS.map((row) => ({ row, cells: columns.map((c) => row.cell(c.result, t)) })).filter(({ cells }) =>
    cells.some((cell) => cell !== null),
  );

  return (
    <div className="run-results__scroll">
      <table className="run-results" data-testid="run-results">
        <caption>{t('results.caption')}</caption>
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
              <th scope="row">{t(`results.rows.${row.name}`)}</th>
              {columns.map((column, i) => {
                const cell = cells[i] ?? null;
                return (
                  <td
                    key={i}
                    data-testid={row.testId ? `${row.testId}${column.reference ? '-reference' : ''}` : undefined}
                    className={cellClass(cell, column.reference)}
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
