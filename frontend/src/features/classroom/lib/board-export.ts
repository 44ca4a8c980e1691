/**
 * The class board's tables as exports (src/lib/export.ts writes them): figures in base units
 * (req/s, µs), servers by id, the recorded reference as a row named "reference". Columns and
 * cells are data, the same in every language; only the menu's names of the tables are words.
 */
import type { NamedTable } from '@/components/export-menu';
import type { Cell } from '@/lib/export';

import { peakPoint } from './board-chart-data';
import type { ClassroomT } from './class-text';
import type { BoardExperiment, BoardResult } from './classroom-schemas';

const REFERENCE = 'reference';

function rowsWithReference(experiment: BoardExperiment): [string, BoardResult][] {
  const students = experiment.results.map((r): [string, BoardResult] => [r.name, r]);
  return experiment.reference ? [[REFERENCE, experiment.reference], ...students] : students;
}

/** A single run's experiment: one row per student (and the reference) with its figures and
 *  its QPS verdict against the reference (the change, its 95 % interval, the call). */
function runResults(experiment: BoardExperiment, t: ClassroomT): NamedTable {
  return {
    what: 'results',
    label: t('export.results'),
    table: {
      columns: ['student', 'server', 'qps', 'p50_us', 'p99_us', 'valid', 'stable', 'finished_at', 'qps_change', 'qps_change_low', 'qps_change_high', 'qps_call'],
      rows: rowsWithReference(experiment).map(([name, r]): Cell[] => [
        name,
        r.server,
        r.qps,
        r.p50_us,
        r.p99_us,
        r.valid,
        r.stable,
        r.finished_at,
        r.verdict?.change?.estimate ?? null,
        r.verdict?.change?.low ?? null,
        r.verdict?.change?.high ?? null,
        r.verdict?.call ?? null,
      ]),
    },
  };
}

/** A series: each student's peak, then every point of every student, then the spread. */
function seriesResults(experiment: BoardExperiment, t: ClassroomT): NamedTable[] {
  const vary = experiment.vary ?? 'value';
  const rows = rowsWithReference(experiment);
  const peaks: NamedTable = {
    what: 'peaks',
    label: t('export.peaks'),
    table: {
      columns: ['student', 'server', vary, 'peak_qps', 'p99_us', 'valid_points', 'points', 'valid', 'stable'],
      rows: rows.map(([name, r]): Cell[] => {
        const peak = peakPoint(r);
        return [
          name,
          peak?.server ?? r.server,
          peak?.value ?? null,
          peak?.qps ?? null,
          peak?.p99_us ?? null,
          r.points.filter((p) => p.valid).length,
          r.points.length,
          r.valid,
          r.stable,
        ];
      }),
    },
  };
  const points: NamedTable = {
    what: 'points',
    label: t('export.points'),
    table: {
      columns: ['student', 'server', vary, 'qps', 'p99_us', 'valid'],
      rows: rows.flatMap(([name, r]) => r.points.map((p): Cell[] => [name, p.server, p.value, p.qps, p.p99_us, p.valid])),
    },
  };
  const spread: NamedTable = {
    what: 'spread',
    label: t('export.spread'),
    table: {
      columns: ['server', vary, 'median_qps', 'min_qps', 'max_qps', 'valid_results'],
      rows: experiment.spread.points.map((p): Cell[] => [p.server, p.value, p.qps.median, p.qps.min, p.qps.max, p.qps.count]),
    },
  };
  return [peaks, points, ...(spread.table.rows.length ? [spread] : [])];
}

/** What the board's export menu of one experiment offers. */
export function boardTables(experiment: BoardExperiment, t: ClassroomT): NamedTable[] {
  return experiment.kind === 'series' ? seriesResults(experiment, t) : [runResults(experiment, t)];
}

/** Files named after the lesson and the block: `02-blocking-3f2a9c01b2d4-results.csv`. */
export function boardExportStem(experiment: BoardExperiment): string {
  return `${experiment.lesson}-${experiment.experiment}`;
}
