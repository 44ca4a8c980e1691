import type { SweepPoint } from '@/lib/api-schemas';
import { formatBytes, formatInt, formatLatencyUs, formatMiB, formatPercent, formatQps } from '@/lib/format';

import { pointNote } from '../lib/series';

interface SeriesTableProps {
  points: SweepPoint[];
  vary: string;
  memoryPerConnection: Record<string, number | null>;
}

const dash = '–';

/** Every point of a series as a row: what the charts plot, and why a point has no figure. */
export function SeriesTable({ points, vary, memoryPerConnection }: SeriesTableProps) {
  const slopes = Object.entries(memoryPerConnection).filter(([, v]) => v !== null) as [string, number][];
  return (
    <div className="series-table">
      <table className="run-results" data-testid="series-table">
        <caption>Points</caption>
        <thead>
          <tr>
            <th scope="col">server</th>
            <th scope="col">{vary.replaceAll('_', ' ')}</th>
            <th scope="col">QPS</th>
            <th scope="col">p50</th>
            <th scope="col">p99</th>
            <th scope="col">server CPU</th>
            <th scope="col">resident</th>
            <th scope="col">threads</th>
            <th scope="col">context switches/s</th>
            <th scope="col">note</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={`${p.server}@${p.value}`} data-status={p.status}>
              <td>{p.server}</td>
              <td>{formatInt(p.value)}</td>
              <td>
                {p.qps != null ? formatQps(p.qps) : dash}
                {/* Repeated points carry their spread, (max − min) / median; a single run has none. */}
                {p.qps != null && p.spread ? <span className="series-table__spread"> spread {formatPercent(p.spread * 100)}</span> : null}
              </td>
              <td>{p.p50_us != null ? formatLatencyUs(p.p50_us) : dash}</td>
              <td>{p.p99_us != null ? formatLatencyUs(p.p99_us) : dash}</td>
              <td>{p.cpu_percent != null ? formatPercent(p.cpu_percent) : dash}</td>
              <td>{p.rss_bytes != null ? formatMiB(p.rss_bytes) : dash}</td>
              <td>{p.threads != null ? formatInt(p.threads) : dash}</td>
              <td>
                {p.voluntary_ctxt_switches_per_s != null
                  ? `${formatInt(p.voluntary_ctxt_switches_per_s)} + ${formatInt(p.nonvoluntary_ctxt_switches_per_s ?? 0)}`
                  : dash}
              </td>
              <td className={p.status === 'done' && p.valid && p.stable !== false ? undefined : 'run-results__bad'}>
                {[
                  pointNote(p),
                  p.idle_dropped ? `${formatInt(p.idle_dropped)} idle connections dropped` : '',
                  p.calls_per_request != null ? `${p.calls_per_request.toFixed(2)} syscalls/request` : '',
                ]
                  .filter(Boolean)
                  .join('; ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {slopes.length ? (
        <p data-testid="memory-per-connection">
          Resident memory per extra connection:{' '}
          {slopes.map(([server, bytes]) => `${server} ${formatBytes(Math.round(bytes))}`).join(' · ')}
        </p>
      ) : null}
    </div>
  );
}
