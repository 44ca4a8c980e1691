import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

import type { SweepPoint } from '@/lib/api-schemas';
import { formatBytes, formatCalls, formatInt, formatLatencyUs, formatMiB, formatPercent, formatQps } from '@/lib/format';
import { runSpread } from '@/lib/verdict';

import { pointNote } from '../lib/series';
import { variedName } from '../lib/words';

import { ClampedNote } from './clamped-note';

interface SeriesTableProps {
  points: SweepPoint[];
  vary: string;
  memoryPerConnection: Record<string, number | null>;
  /** The recorded reference's points: a row each beside the learner's, in a quieter style. */
  reference?: { label: string; points: SweepPoint[] } | null | undefined;
}

const dash = '–';

interface Row {
  point: SweepPoint;
  reference: boolean;
}

/** The learner's rows and the reference's interleaved: each server (in the order they come)
 *  and value together, yours first. */
function tableRows(points: SweepPoint[], reference: SweepPoint[] | undefined): Row[] {
  const rows: Row[] = points.map((point) => ({ point, reference: false }));
  if (!reference) return rows;
  const all = [...rows, ...reference.map((point) => ({ point, reference: true }))];
  const servers = [...new Set(all.map((r) => r.point.server))];
  const place = (r: Row) => servers.indexOf(r.point.server);
  return all.sort(
    (a, b) => place(a) - place(b) || a.point.value - b.point.value || Number(a.reference) - Number(b.reference),
  );
}

/** Beside a point's QPS: a repeated point's spread, (max − min) / median; a single run's 95 %
 *  range from its runner's run-to-run noise, when the runner knew it. */
function QpsUncertainty({ point, t }: { point: SweepPoint; t: TFunction<'bench'> }) {
  if (point.qps == null) return null;
  if (point.spread) {
    return <span className="series-table__spread"> {t('seriesTable.spread', { spread: formatPercent(point.spread * 100) })}</span>;
  }
  if (!point.host_noise) return null;
  const range = formatPercent(runSpread(point.host_noise) * 100);
  return (
    <span className="series-table__spread" data-testid="point-noise" title={t('seriesTable.noiseTitle', { range })}>
      {' '}
      ±{range}
    </span>
  );
}

/** Idle connections the server would not keep: how many connections, and how many drops in all
 *  (a connection dropped comes back and is dropped again); runs recorded before the distinct
 *  count was kept say the drops alone. */
function idleNote(p: SweepPoint, t: TFunction<'bench'>): string {
  if (!p.idle_dropped) return '';
  if (p.idle_dropped_connections == null) {
    return t('seriesTable.idleDropped', { count: p.idle_dropped, dropped: formatInt(p.idle_dropped) });
  }
  return t('seriesTable.idleRefused', {
    count: p.idle_dropped_connections,
    connections: formatInt(p.idle_dropped_connections),
    drops: formatInt(p.idle_dropped),
  });
}

function note(p: SweepPoint, t: TFunction<'bench'>): string {
  return [pointNote(p, t), idleNote(p, t)]
    .filter(Boolean)
    .join(t('list.clauses'));
}

/** Every point of a series as a row: what the charts plot, and why a point has no figure. */
export function SeriesTable({ points, vary, memoryPerConnection, reference }: SeriesTableProps) {
  const { t } = useTranslation('bench');
  const slopes = Object.entries(memoryPerConnection).filter(([, v]) => v !== null) as [string, number][];
  const rows = tableRows(points, reference?.points);
  // A series that counted system calls shows them in a column of their own: the figure the
  // lesson is about, never behind a flagged point's note.
  const counted = rows.some(({ point }) => point.calls_per_request != null);
  return (
    <div className="series-table">
      <table className="run-results" data-testid="series-table">
        <caption>{t('seriesTable.caption')}</caption>
        <thead>
          <tr>
            {reference ? <th scope="col">{t('seriesTable.columns.result')}</th> : null}
            <th scope="col">{t('seriesTable.columns.server')}</th>
            <th scope="col">{variedName(vary, t)}</th>
            <th scope="col">QPS</th>
            <th scope="col">{t('figures.p50')}</th>
            <th scope="col">{t('figures.p99')}</th>
            <th scope="col">{t('seriesTable.columns.cpu')}</th>
            <th scope="col">{t('seriesTable.columns.rss')}</th>
            <th scope="col">{t('seriesTable.columns.threads')}</th>
            <th scope="col">{t('seriesTable.columns.contextSwitches')}</th>
            {counted ? <th scope="col">{t('seriesTable.columns.calls')}</th> : null}
            <th scope="col">{t('seriesTable.columns.note')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ point: p, reference: isReference }) => (
            <tr
              key={`${isReference ? 'reference:' : ''}${p.server}@${p.value}`}
              data-status={p.status}
              className={isReference ? 'run-results__reference' : undefined}
            >
              {reference ? <td>{isReference ? reference.label : t('chart.live')}</td> : null}
              <td>{p.server}</td>
              <td>{formatInt(p.value)}</td>
              <td>
                {p.qps != null ? formatQps(p.qps) : dash}
                <QpsUncertainty point={p} t={t} />
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
              {counted ? <td data-testid="calls-per-request">{p.calls_per_request != null ? formatCalls(p.calls_per_request) : dash}</td> : null}
              <td
                className={
                  [
                    p.status === 'done' && p.valid && p.stable !== false ? null : 'run-results__bad',
                    isReference ? 'run-results__reference' : null,
                  ]
                    .filter(Boolean)
                    .join(' ') || undefined
                }
              >
                <ClampedNote text={note(p, t)} limit={80} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="series-table__legend">{t('seriesTable.legend')}</p>
      {slopes.length ? (
        <p data-testid="memory-per-connection">
          {t('seriesTable.memoryPerConnection', {
            slopes: slopes.map(([server, bytes]) => `${server} ${formatBytes(Math.round(bytes))}`).join(' · '),
          })}
        </p>
      ) : null}
    </div>
  );
}
