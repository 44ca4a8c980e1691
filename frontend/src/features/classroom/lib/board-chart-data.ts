/**
 * The class board's charts as data: per experiment, one named bar per student beside the
 * recorded reference (a single run), or one line per student and server (a series). Pure, for
 * the charts and their tests.
 */
import type { ClassroomT } from './class-text';
import type { BoardExperiment, BoardPoint, BoardResult } from './classroom-schemas';

export type BoardMetric = 'qps' | 'p99_us';

/** The dataset id of the recorded result, drawn in its own style (its name is translated). */
export const REFERENCE_ID = 'reference';

export interface BoardBar {
  /** person id, or "reference": stable across refreshes. */
  id: string;
  label: string;
  value: number | null;
  reference: boolean;
  /** Invalid or disturbed: drawn hollow, and its tooltip says why. */
  flagged: boolean;
  note: string;
}

export interface BoardLine {
  id: string;
  label: string;
  server: string;
  reference: boolean;
  /** The student's place in the board's order (colour), -1 for the reference. */
  person: number;
  /** The server's place among the experiment's servers (point style). */
  serverIndex: number;
  /** One per value of `values`; null where the line has no valid figure. */
  points: { x: number; y: number | null }[];
}

export interface BoardSeries {
  /** The varied values, ascending. */
  values: number[];
  lines: BoardLine[];
  /** More than one value: lines over it; otherwise one bar per line. */
  varies: boolean;
}

/** Has anyone in the class a result for it yet? The board hides the others unless asked. */
export function hasResults(experiment: BoardExperiment): boolean {
  return experiment.results.length > 0;
}

/** "invalid", "unstable", both, or "" for a clean result. */
export function resultNote(result: Pick<BoardResult, 'valid' | 'stable'>, t: ClassroomT): string {
  const invalid = result.valid === false;
  const unstable = result.stable === false;
  if (invalid && unstable) return t('note.invalidUnstable');
  if (invalid) return t('note.invalid');
  return unstable ? t('note.unstable') : '';
}

function entries(experiment: BoardExperiment): { result: BoardResult; reference: boolean }[] {
  const students = experiment.results.map((result) => ({ result, reference: false }));
  return experiment.reference ? [{ result: experiment.reference, reference: true }, ...students] : students;
}

function idOf(result: BoardResult, reference: boolean): string {
  return reference ? REFERENCE_ID : (result.person_id ?? result.name);
}

/** A single run's experiment: the reference first, then each student in the board's order. */
export function runBars(experiment: BoardExperiment, metric: BoardMetric, t: ClassroomT): BoardBar[] {
  return entries(experiment).map(({ result, reference }) => {
    const note = resultNote(result, t);
    return {
      id: idOf(result, reference),
      label: reference ? t('chart.reference') : result.name,
      value: result[metric],
      reference,
      flagged: note !== '',
      note,
    };
  });
}

function validFigure(point: BoardPoint | undefined, metric: BoardMetric): number | null {
  if (!point?.valid) return null;
  return point[metric];
}

/** A series: one line per student (and per server when it compares several), the reference's too. */
export function seriesLines(experiment: BoardExperiment, metric: BoardMetric, t: ClassroomT): BoardSeries {
  const all = entries(experiment);
  const values = [...new Set(all.flatMap(({ result }) => result.points.map((p) => p.value)))].sort((a, b) => a - b);
  const servers = [...new Set(all.flatMap(({ result }) => result.points.map((p) => p.server)))];
  const severalServers = servers.length > 1;
  let student = 0;
  const lines = all.flatMap(({ result, reference }) => {
    const person = reference ? -1 : student++;
    const own = servers.filter((server) => result.points.some((p) => p.server === server));
    return own.map((server) => {
      const at = new Map(result.points.filter((p) => p.server === server).map((p) => [p.value, p]));
      const name = reference ? t('chart.reference') : result.name;
      return {
        id: `${idOf(result, reference)}:${server}`,
        label: severalServers ? `${name} · ${server}` : name,
        server,
        reference,
        person,
        serverIndex: servers.indexOf(server),
        points: values.map((x) => ({ x, y: validFigure(at.get(x), metric) })),
      };
    });
  });
  return { values, lines, varies: values.length > 1 };
}

/** How many figures a chart draws (for its frame's empty message and tests). */
export function plottedBars(bars: BoardBar[]): number {
  return bars.filter((bar) => bar.value !== null).length;
}

export function plottedLines(series: BoardSeries): number {
  return series.lines.reduce((n, line) => n + line.points.filter((p) => p.y !== null).length, 0);
}

/** A series result in one row: its best valid point (highest QPS), or null when none is valid. */
export function peakPoint(result: BoardResult): BoardPoint | null {
  let best: BoardPoint | null = null;
  for (const point of result.points) {
    if (!point.valid || point.qps === null) continue;
    if (best === null || point.qps > (best.qps ?? -Infinity)) best = point;
  }
  return best;
}
