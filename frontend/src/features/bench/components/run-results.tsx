import type { Aggregate, Client, DoneEvent, Summary, Syscalls } from '@/lib/api-schemas';
import { formatInt, formatLatencyUs, formatMiB, formatPercent, formatQps } from '@/lib/format';

import { stabilityFigures } from '../lib/stability';

const SYSCALL_ROWS = 8;

/** Repetitions: the median and how far they disagreed; a spread over the threshold is noisy. */
function RepetitionsRow({ aggregate }: { aggregate: Aggregate }) {
  const { qps, noisy, noisy_threshold: threshold, count } = aggregate;
  return (
    <tr>
      <th scope="row">Repetitions</th>
      <td data-testid="run-repetitions" className={noisy ? 'run-results__bad' : undefined}>
        median of {count}: {formatQps(qps.median)} req/s (from {formatQps(qps.min)} to {formatQps(qps.max)}), spread{' '}
        {formatPercent(qps.spread * 100)}
        {noisy ? (
          <strong data-testid="run-noisy">
            {' '}
            — noisy: the repetitions disagree by more than {formatPercent(threshold * 100)}; treat the figure with care
            or run again on a quieter machine
          </strong>
        ) : null}
      </td>
    </tr>
  );
}

/** Open loop: the rate asked for and achieved, and the latencies the headline does not show. */
function OpenLoopRow({ openLoop }: { openLoop: NonNullable<Summary['open_loop']> }) {
  return (
    <tr>
      <th scope="row">Open loop</th>
      <td data-testid="run-open-loop" className={openLoop.short_of_target ? 'run-results__bad' : undefined}>
        target {formatQps(openLoop.target_qps)} req/s, achieved {formatQps(openLoop.achieved_qps)} (
        {formatPercent(openLoop.achieved_fraction * 100)}). Latency above counts from each request&apos;s intended
        send time; from the actual send p99 is {formatLatencyUs(openLoop.latency_actual_us.p99)}, and requests left
        p99 {formatLatencyUs(openLoop.send_lag_us.p99)} late.
      </td>
    </tr>
  );
}

/** One call's share per request, with how many of them failed where that was counted. */
function callShare(row: Syscalls['rows'][number]): string {
  const failed = row.errors ? ` (${Math.round((100 * row.errors) / row.calls)} % failed)` : '';
  return `${row.syscall} ${row.per_request.toFixed(2)}${failed}`;
}

/** The syscall profile: the most frequent calls, per request served, counted without ptrace. */
function SyscallsRow({ syscalls }: { syscalls: Syscalls }) {
  return (
    <tr>
      <th scope="row">System calls</th>
      <td data-testid="run-syscalls">
        {syscalls.refused != null || syscalls.calls_per_request == null ? (
          <>Not counted: {syscalls.refused ?? 'no counts'}</>
        ) : (
          <>
            {syscalls.calls_per_request.toFixed(2)} per request ({formatInt(syscalls.requests ?? 0)} requests,
            counted by perf's tracepoints; they slow a server that forks or starts a thread per
            connection):{' '}
            {syscalls.rows.slice(0, SYSCALL_ROWS).map(callShare).join(' · ')}
          </>
        )}
      </td>
    </tr>
  );
}

/** Whether anything disturbed the run while it was measured, and the figures that say so.
 *  Results recorded before the runner checked this have no row. */
function StabilityRow({ result }: { result: DoneEvent }) {
  if (result.stable == null) return null;
  const figures = stabilityFigures(result.interference, result.drift);
  return (
    <tr>
      <th scope="row">Stability</th>
      <td data-testid="run-stability" className={result.stable ? 'run-results__ok' : 'run-results__bad'}>
        {result.stable ? 'stable' : `unstable: ${result.unstable_reason ?? 'no reason given'}`}
        {figures ? (
          <span className="run-results__figures" data-testid="run-stability-figures">
            {' '}
            ({figures})
          </span>
        ) : null}
      </td>
    </tr>
  );
}

/** The load generator's side: its engine and how busy it was; client-bound, shown like
 *  unstable, when it was saturated and the server was not. */
function ClientRow({ client }: { client: Client }) {
  const figures = [
    client.engine ? `${client.engine} engine` : null,
    client.cpu != null ? `${formatPercent(client.cpu * 100)} of its CPUs` : null,
  ].filter(Boolean);
  return (
    <tr>
      <th scope="row">Load generator</th>
      <td data-testid="run-client" className={client.bound ? 'run-results__bad' : undefined}>
        {client.bound ? `client-bound: ${client.reason ?? 'this measures the load generator'}` : figures.join(' · ')}
        {client.engine_note ? <span className="run-results__figures"> ({client.engine_note})</span> : null}
      </td>
    </tr>
  );
}

/** The final figures of a finished run as a small table. */
export function RunResults({ result }: { result: DoneEvent }) {
  const { summary, server } = result;
  const errorKinds = Object.entries(summary.errors).filter(([, n]) => n > 0);
  const errors =
    summary.error_total === 0
      ? 'none'
      : `${formatInt(summary.error_total)}${
          errorKinds.length ? ` (${errorKinds.map(([kind, n]) => `${kind} ${formatInt(n)}`).join(', ')})` : ''
        }`;

  return (
    <table className="run-results" data-testid="run-results">
      <caption>Results</caption>
      <tbody>
        <tr>
          <th scope="row">Throughput</th>
          <td>
            <strong>{formatQps(summary.qps)}</strong> req/s ({formatInt(summary.requests)} requests in{' '}
            {summary.duration_s.toFixed(1)} s)
          </td>
        </tr>
        <tr>
          <th scope="row">Latency</th>
          <td>
            p50 {formatLatencyUs(summary.latency_us.p50)} · p99 {formatLatencyUs(summary.latency_us.p99)} · p99.9{' '}
            {formatLatencyUs(summary.latency_us.p999)} · max {formatLatencyUs(summary.latency_us.max)}
          </td>
        </tr>
        <tr>
          <th scope="row">Errors</th>
          <td className={summary.error_total > 0 ? 'run-results__bad' : undefined}>{errors}</td>
        </tr>
        {result.aggregate && result.aggregate.count > 1 ? <RepetitionsRow aggregate={result.aggregate} /> : null}
        {summary.open_loop ? <OpenLoopRow openLoop={summary.open_loop} /> : null}
        {summary.idle && summary.idle.requested > 0 ? (
          <tr>
            <th scope="row">Idle connections</th>
            <td className={summary.idle.dropped > 0 ? 'run-results__bad' : undefined}>
              {formatInt(summary.idle.open_at_start)} of {formatInt(summary.idle.requested)} open at the start;{' '}
              {formatInt(summary.idle.dropped)} dropped by the server during the run
            </td>
          </tr>
        ) : null}
        {server ? (
          <tr>
            <th scope="row">Server</th>
            <td>
              {server.cpu_percent_mean != null ? `CPU ${formatPercent(server.cpu_percent_mean)} mean` : 'CPU n/a'}
              {server.memory_peak_bytes != null ? ` · memory peak ${formatMiB(server.memory_peak_bytes)}` : ''}
              {server.pids_peak != null
                ? ` · ${formatInt(server.pids_peak)} ${server.pids_peak === 1 ? 'process/thread' : 'processes/threads'} at peak`
                : ''}
              {server.profile?.threads_peak != null ? ` · ${formatInt(server.profile.threads_peak)} threads` : ''}
              {server.profile?.rss_mean_bytes != null ? ` · resident ${formatMiB(server.profile.rss_mean_bytes)}` : ''}
              {server.profile?.voluntary_ctxt_switches_per_s != null
                ? ` · context switches ${formatInt(server.profile.voluntary_ctxt_switches_per_s)}/s voluntary, ${formatInt(
                    server.profile.nonvoluntary_ctxt_switches_per_s ?? 0,
                  )}/s involuntary`
                : ''}
            </td>
          </tr>
        ) : null}
        {result.syscalls ? <SyscallsRow syscalls={result.syscalls} /> : null}
        <tr>
          <th scope="row">Validity</th>
          <td data-testid="run-validity" className={result.valid ? 'run-results__ok' : 'run-results__bad'}>
            {result.valid ? 'valid' : `invalid: ${result.invalid_reason ?? 'no reason given'}`}
          </td>
        </tr>
        <StabilityRow result={result} />
        {result.client ? <ClientRow client={result.client} /> : null}
      </tbody>
    </table>
  );
}
