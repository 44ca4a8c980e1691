import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ExportMenu } from '@/components/export-menu';
import { formatInt, formatLatencyUs, formatQps } from '@/lib/format';
import { verdictParts } from '@/lib/verdict';

import { peakPoint } from '../lib/board-chart-data';
import { boardExportStem, boardTables } from '../lib/board-export';
import type { BoardExperiment, BoardResult, Stat } from '../lib/classroom-schemas';

import { ClassTable, type ClassTableColumn } from './class-table';

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

interface BoardTableProps {
  experiment: BoardExperiment;
  /** The columns between the student's name and their checks. */
  figures: ClassTableColumn[];
  onSpotlight: TableProps['onSpotlight'];
  /** The rows. */
  children: ReactNode;
}

/** An experiment's results: CSV, JSON and Markdown of them above, then a row per student,
 *  named first and their checks last, with Spotlight at the end when the instructor may. */
function BoardTable({ experiment, figures, onSpotlight, children }: BoardTableProps) {
  const { t } = useTranslation('classroom');
  return (
    <>
      <ExportMenu
        stem={boardExportStem(experiment)}
        tables={boardTables(experiment, t)}
        label={t('table.exportLabel', { title: experiment.title })}
      />
      <ClassTable
        testId="board-table"
        columns={[{ label: t('table.student') }, ...figures, { label: t('table.checks') }]}
        actions={onSpotlight !== undefined}
      >
        {children}
      </ClassTable>
    </>
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
      <BoardTable
        experiment={experiment}
        figures={[
          { label: t('table.server') },
          { label: t('table.qps'), numeric: true },
          { label: t('table.p50'), numeric: true },
          { label: t('table.p99'), numeric: true },
          { label: t('table.againstReference') },
        ]}
        onSpotlight={onSpotlight}
      >
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
              values={{ counted: spread.qps?.count ?? 0, leftOut: spread.left_out }}
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
      </BoardTable>
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
      <BoardTable
        experiment={experiment}
        figures={[
          { label: t('table.servers') },
          { label: t('table.validPoints'), numeric: true },
          { label: t('table.peakQps'), numeric: true },
          { label: t('table.p99There'), numeric: true },
        ]}
        onSpotlight={onSpotlight}
      >
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
      </BoardTable>
      {experiment.spread.points.length > 0 ? (
        <ClassTable
          testId="board-spread-table"
          caption={<caption className="board-experiment__lesson">{t('table.spreadCaption')}</caption>}
          columns={[
            { label: t('table.server') },
            { label: vary, numeric: true },
            { label: t('table.medianQps'), numeric: true },
            { label: t('table.validResults'), numeric: true },
          ]}
        >
          {experiment.spread.points.map((point) => (
            <tr key={`${point.server}@${point.value}`}>
              <td>{point.server}</td>
              <td className="class-table__num">{formatInt(point.value)}</td>
              <td className="class-table__num">{statText(point.qps, formatQps)}</td>
              <td className="class-table__num">{point.qps.count}</td>
            </tr>
          ))}
        </ClassTable>
      ) : null}
    </>
  );
}
