import type { DoneEvent } from '@/lib/api-schemas';
import { formatInt, formatLatencyUs, formatMiB, formatPercent, formatQps } from '@/lib/format';

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
        {server ? (
          <tr>
            <th scope="row">Server</th>
            <td>
              {server.cpu_percent_mean != null ? `CPU ${formatPercent(server.cpu_percent_mean)} mean` : 'CPU n/a'}
              {server.memory_peak_bytes != null ? ` · memory peak ${formatMiB(server.memory_peak_bytes)}` : ''}
              {server.pids_peak != null
                ? ` · ${formatInt(server.pids_peak)} ${server.pids_peak === 1 ? 'process/thread' : 'processes/threads'} at peak`
                : ''}
            </td>
          </tr>
        ) : null}
        <tr>
          <th scope="row">Validity</th>
          <td data-testid="run-validity" className={result.valid ? 'run-results__ok' : 'run-results__bad'}>
            {result.valid ? 'valid' : `invalid: ${result.invalid_reason ?? 'no reason given'}`}
          </td>
        </tr>
      </tbody>
    </table>
  );
}
