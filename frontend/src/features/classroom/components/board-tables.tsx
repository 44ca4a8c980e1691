import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ExportMenu } from '@/components/export-menu';
import { formatInt, formatLatencyUs, formatQps } from '@/lib/format';
import { verdictParts } from '@/lib/verdict';

import { peakPoint } from '../lib/board-chart-data';
import { boardExportStem, boardTables } from '../lib/board-export';
import type { BoardExperiment, BoardResult, Stat } from '../lib/classroom-schemas';

interface TableProps {
  experiment: BoardExperiment;
  /** Shows the result on every screen of the class; absent on a student's read-only board. */
  onSpotlight?: (result: BoardResult) => void;
  spotlighting: boolean;
}

function figure(value: number | null, format: (v: number) => string): string {
  return value === null ? '—' : format(value);
}

/** "51,234 (40,000 – 60,000)": the median over the students' valid results, and their range. */
function statText(stat: Stat | null, format: (v: number) => string): string {
  if (!stat || stat.count === 0) return '—';
  return `${format(stat.median)} (${format(stat.min)} – ${format(stat.max)})`;
}

/** A student's name, linking to the permalink of their run or series (open to the class). */
function StudentName({ result }: { result: BoardResult }) {
  const to = result.run_id
    ? `/runs/${encodeURIComponent(result.run_id)}`
    : result.sweep_id
      ? `/sweeps/${encodeURIComponent(result.sweep_id)}`
      : null;
  return to ? <Link to={to}>{result.name}</Link> : <>{result.name}</>;
}

/** CSV, JSON and Markdown of the experiment's results, above its table. */
function BoardExport({ experiment }: { experiment: BoardExperiment }) {
  const { t } = useTranslation('classroom');
  return (
    <ExportMenu
      stem={boardExportStem(experiment)}
      tables={boardTables(experiment, t)}
      label={t('table.exportLabel', { title: experiment.title })}
    />
  );
}

/** Valid and stable marks, in words as well as signs. */
function Checks({ result }: { result: BoardResult }) {
  const { t } = useTranslation('classroom');
  if (result.valid === null) return <>—</>;
  return (
    <>
      {result.valid ? t('table.valid') : <span className="class-table__flag">{t('table.invalid')}</span>}
      {result.stable === false ? <span className="class-table__flag"> · {t('table.unstable')}</span> : null}
    </>
  );
}

/** A student's QPS against the reference's: the backend's verdict in words, "—" without one. */
function AgainstReference({ result }: { result: BoardResult }) {
  const { t } = useTranslation('classroom');
  if (!result.verdict) return <>—</>;
  const { key, values } = verdictParts(result.verdict);
  return <>{t(`table.verdict.${key}`, values)}</>;
}

function SpotlightButton({ result, onSpotlight, spotlighting }: Omit<TableProps, 'experiment'> & { result: BoardResult }) {
  const { t } = useTranslation('classroom');
  if (!onSpotlight || (result.run_id === null && result.sweep_id === null)) return null;
  return (
    <button
      type="button"
      className="button button--small"
      onClick={() => {
        onSpotlight(result);
      }}
      disabled={spotlighting}
      aria-label={t('table.spotlightLabel', { name: result.name })}
    >
      {t('table.spotlight')}
    </button>
  );
}

/** A single run's experiment: one row per student, the reference above, the spread below. */
export function RunResultsTable({ experiment, onSpotlight, spotlighting }: TableProps) {
  const { t } = useTranslation('classroom');
  const { reference, results, spread } = experiment;
  return (
    <>
      <BoardExport experiment={experiment} />
      <div className="class-table-wrap">
        <table className="class-table" data-testid="board-table">
          <thead>
            <tr>
              <th scope="col">{t('table.student')}</th>
              <th scope="col">{t('table.server')}</th>
              <th scope="col" className="class-table__num">{t('table.qps')}</th>
              <th scope="col" className="class-table__num">{t('table.p50')}</th>
              <th scope="col" className="class-table__num">{t('table.p99')}</th>
              <th scope="col">{t('table.againstReference')}</th>
              <th scope="col">{t('table.checks')}</th>
              {onSpotlight ? <th scope="col"><span className="class-visually-hidden">{t('table.actions')}</span></th> : null}
            </tr>
          </thead>
          <tbody>
            {reference ? (
              <tr className="class-table__reference" data-testid="board-reference-row">
                <th scope="row">{t('table.reference')}</th>
                <td>{reference.server ?? '—'}</td>
                <td className="class-table__num">{figure(reference.qps, formatQps)}</td>
                <td className="class-table__num">{figure(reference.p50_us, formatLatencyUs)}</td>
                <td className="class-table__num">{figure(reference.p99_us, formatLatencyUs)}</td>
                <td>{t('table.isReference')}</td>
                <td><Checks result={reference} /></td>
                {onSpotlight ? <td /> : null}
              </tr>
            ) : null}
            {results.map((result) => (
              <tr key={result.person_id ?? result.name} data-testid="board-row">
                <th scope="row">
                  <StudentName result={result} />
                </th>
                <td>{result.server ?? '—'}</td>
                <td className="class-table__num">{figure(result.qps, formatQps)}</td>
                <td className="class-table__num">{figure(result.p50_us, formatLatencyUs)}</td>
                <td className="class-table__num">{figure(result.p99_us, formatLatencyUs)}</td>
                <td data-testid="board-verdict"><AgainstReference result={result} /></td>
                <td><Checks result={result} /></td>
                {onSpotlight ? (
                  <td><SpotlightButton result={result} onSpotlight={onSpotlight} spotlighting={spotlighting} /></td>
                ) : null}
              </tr>
            ))}
            <tr className="class-table__spread" data-testid="board-spread-row">
              <th scope="row">
                <Trans
                  t={t}
                  i18nKey="table.spread"
                  values={{ valid: spread.qps?.count ?? 0 }}
                  components={{ muted: <span className="board-experiment__lesson" /> }}
                />
              </th>
              <td>{t('table.medianRange')}</td>
              <td className="class-table__num">{statText(spread.qps, formatQps)}</td>
              <td className="class-table__num">—</td>
              <td className="class-table__num">{statText(spread.p99_us, formatLatencyUs)}</td>
              <td />
              <td />
              {onSpotlight ? <td /> : null}
            </tr>
          </tbody>
        </table>
      </div>
      {results.some((r) => r.verdict) ? <p className="class-table__note">{t('table.verdictNote')}</p> : null}
    </>
  );
}

function pointsText(result: BoardResult): string {
  const valid = result.points.filter((p) => p.valid).length;
  return `${valid} / ${result.points.length}`;
}

function servers(result: BoardResult): string {
  const names = [...new Set(result.points.map((p) => p.server))];
  return names.length > 0 ? names.join(', ') : (result.server ?? '—');
}

/** A series: one row per student with its best point; the spread per point in a second table. */
export function SeriesResultsTable({ experiment, onSpotlight, spotlighting }: TableProps) {
  const { t } = useTranslation('classroom');
  const rows = experiment.reference ? [experiment.reference, ...experiment.results] : experiment.results;
  const vary = (experiment.vary ?? t('chart.value')).replaceAll('_', ' ');
  return (
    <>
      <BoardExport experiment={experiment} />
      <div className="class-table-wrap">
        <table className="class-table" data-testid="board-table">
          <thead>
            <tr>
              <th scope="col">{t('table.student')}</th>
              <th scope="col">{t('table.servers')}</th>
              <th scope="col" className="class-table__num">{t('table.validPoints')}</th>
              <th scope="col" className="class-table__num">{t('table.peakQps')}</th>
              <th scope="col" className="class-table__num">{t('table.p99There')}</th>
              <th scope="col">{t('table.checks')}</th>
              {onSpotlight ? <th scope="col"><span className="class-visually-hidden">{t('table.actions')}</span></th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((result) => {
              const reference = result === experiment.reference;
              const peak = peakPoint(result);
              return (
                <tr
                  key={reference ? 'reference' : (result.person_id ?? result.name)}
                  className={reference ? 'class-table__reference' : undefined}
                  data-testid={reference ? 'board-reference-row' : 'board-row'}
                >
                  <th scope="row">{reference ? t('table.reference') : <StudentName result={result} />}</th>
                  <td>{servers(result)}</td>
                  <td className="class-table__num">{pointsText(result)}</td>
                  <td className="class-table__num">
                    {peak ? `${figure(peak.qps, formatQps)} (${peak.server}, ${formatInt(peak.value)})` : '—'}
                  </td>
                  <td className="class-table__num">{peak ? figure(peak.p99_us, formatLatencyUs) : '—'}</td>
                  <td><Checks result={result} /></td>
                  {onSpotlight ? (
                    <td>
                      {reference ? null : <SpotlightButton result={result} onSpotlight={onSpotlight} spotlighting={spotlighting} />}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {experiment.spread.points.length > 0 ? (
        <div className="class-table-wrap">
          <table className="class-table" data-testid="board-spread-table">
            <caption className="board-experiment__lesson">{t('table.spreadCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('table.server')}</th>
                <th scope="col" className="class-table__num">{vary}</th>
                <th scope="col" className="class-table__num">{t('table.medianQps')}</th>
                <th scope="col" className="class-table__num">{t('table.validResults')}</th>
              </tr>
            </thead>
            <tbody>
              {experiment.spread.points.map((point) => (
                <tr key={`${point.server}@${point.value}`}>
                  <td>{point.server}</td>
                  <td className="class-table__num">{formatInt(point.value)}</td>
                  <td className="class-table__num">{statText(point.qps, formatQps)}</td>
                  <td className="class-table__num">{point.qps.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
