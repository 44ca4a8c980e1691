import { useQueries, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ChartLoading } from '@/components/chart-frame';
import { ExportAboutContext } from '@/components/export-about';
import { ExportMenu } from '@/components/export-menu';
import { ShareResult } from '@/components/share-result';
import { useServers } from '@/hooks/use-servers';
import type { Comparison, Run, Sweep } from '@/lib/api-schemas';
import { formatInt, formatLatencyUs, formatMiB, formatPercent, formatQps } from '@/lib/format';
import { getRun } from '@/lib/runs-api';
import { compareLink, type ComparedResult } from '@/lib/share-link';
import { runInterval } from '@/lib/verdict';

import { compareRuns } from '../../api/lab';
import { getSweep } from '../../api/sweeps';
import { useRunProvenance } from '../../hooks/use-run-provenance';
import { compareTable, comparedRuns, referenceRow, runRow, rowSpread, shortTime, sweepRows, verdictWords, type CompareRow } from '../../lib/compare';
import { comparisonAbout, type ComparedFacts } from '../../lib/result-about';
import { versus } from '../../lib/words';
import { PermalinkProblem } from '../permalink-parts';

// A figure's chart comes with Chart.js when a comparison is first drawn (the history shows none
// until asked); it keeps its place meanwhile.
const FigureChart = lazy(async () => ({ default: (await import('./compare-chart')).FigureChart }));

interface CompareViewProps {
  /** The results compared, in order: the first is the reference (a History entry is one). */
  entries: ComparedResult[];
  /** Server ids in the catalog's order: a server keeps its look on every chart. */
  serverOrder: string[];
  /** On a page of its own (`/compare`): a result that cannot be opened is the page's problem,
   *  said as a permalink says it (403, 404), not a line under a list. */
  standalone?: boolean;
}

type Source = { kind: 'run'; run: Run } | { kind: 'sweep'; sweep: Sweep };

/** A stored result as its comparison's about names it: its row's label, its request, its date. */
function sourceFacts(source: Source, t: TFunction<'bench'>, lng: string | undefined): ComparedFacts {
  if (source.kind === 'run') {
    const { run } = source;
    return { label: runRow(run, t, lng).label, request: run.request, createdAt: run.created_at };
  }
  const { sweep } = source;
  return { label: `${versus(sweep.request.servers, t)} · ${shortTime(sweep.created_at, lng)}`, request: sweep.request, createdAt: sweep.created_at };
}

/** The picked results as rows, their words in the interface's language: the queries keep the
 *  API's answers, the rows are made from them at each render. */
function useCompareRows(entries: ComparedResult[]): {
  rows: CompareRow[];
  sources: Source[];
  loading: boolean;
  error: { error: Error; entry: ComparedResult } | null;
} {
  const { t, i18n } = useTranslation('bench');
  const lng = i18n.resolvedLanguage;
  const results = useQueries({
    queries: entries.map((entry) =>
      entry.kind === 'run'
        ? { queryKey: ['run', entry.id], queryFn: async ({ signal }: { signal: AbortSignal }) => ({ kind: 'run' as const, run: await getRun(entry.id, signal) }) }
        : { queryKey: ['sweep', entry.id], queryFn: async ({ signal }: { signal: AbortSignal }) => ({ kind: 'sweep' as const, sweep: await getSweep(entry.id, signal) }) },
    ),
  });
  const failed = results.findIndex((r) => r.error);
  const failure = failed >= 0 ? results[failed]?.error : null;
  const entry = entries[failed];
  return {
    rows: results.flatMap((r) => {
      if (!r.data) return [];
      return r.data.kind === 'run' ? [runRow(r.data.run, t, lng)] : sweepRows(r.data.sweep, t, lng);
    }),
    sources: results.flatMap((r) => (r.data ? [r.data] : [])),
    loading: results.some((r) => r.isPending),
    error: failure && entry ? { error: failure, entry } : null,
  };
}

const NO_VERDICTS: Comparison[] = [];

/** The backend's verdicts of every row's run against the reference's (the first row's). */
function useVerdicts(rows: CompareRow[]): { verdicts: Comparison[]; error: Error | null } {
  const runs = comparedRuns(rows);
  const answer = useQuery({
    queryKey: ['history-compare', runs],
    queryFn: ({ signal }) => compareRuns(runs, signal),
    enabled: runs.length >= 2,
  });
  return { verdicts: answer.data ?? NO_VERDICTS, error: answer.error };
}

/** QPS with how far a second run could land, when the runner knew: "182k ±9 %". */
function qpsWithSpread(row: CompareRow): string {
  if (row.qps === null) return '—';
  const spread = rowSpread(row.noise);
  return spread === null ? formatQps(row.qps) : `${formatQps(row.qps)} ±${formatPercent(spread * 100)}`;
}

/** A row's QPS interval: where a second run would land by its host's noise, when known. */
function qpsInterval(row: CompareRow): [number, number] | null {
  return row.qps !== null && row.noise ? runInterval(row.qps, row.noise) : null;
}

/** The figures compared, a chart each (titles as keys): QPS, with its interval where the
 *  host's noise is known, and p99 latency. */
const FIGURES = [
  { testId: 'compare-qps', title: 'compare.qpsTitle', figure: (r: CompareRow) => r.qps, interval: qpsInterval, format: formatQps },
  { testId: 'compare-p99', title: 'chart.p99Latency', figure: (r: CompareRow) => r.p99_us, format: formatLatencyUs },
] as const;

/** What the export files are named after: `comparison-results.csv`. */
const EXPORT_STEM = 'comparison';

const dash = (value: number | null, format: (v: number) => string) => (value === null ? '—' : format(value));

/** The picked results on one chart per figure and one table. */
export function CompareView({ entries, serverOrder, standalone = false }: CompareViewProps) {
  const { t, i18n } = useTranslation('bench');
  const { rows, sources, loading, error } = useCompareRows(entries);
  const { verdicts, error: verdictError } = useVerdicts(rows);
  const reference = referenceRow(rows);
  const { provenance } = useRunProvenance(reference?.runId ?? null);
  const catalog = useServers().data;
  const path = compareLink(entries);
  const lng = i18n.resolvedLanguage;
  const about = useMemo(
    () =>
      comparisonAbout(
        { results: sources.map((source) => sourceFacts(source, t, lng)), servers: catalog ?? [], provenance, path, legend: rows.map((r) => r.label) },
        t,
        lng,
      ),
    [sources, catalog, provenance, path, rows, t, lng],
  );
  if (error) {
    return standalone ? (
      <PermalinkProblem what={error.entry.kind === 'run' ? 'run' : 'series'} id={error.entry.id} error={error.error} />
    ) : (
      <p role="alert">{t('compare.loadFailed', { error: error.error.message })}</p>
    );
  }
  if (loading) return <p role="status">{t('compare.loading', { count: entries.length })}</p>;
  const verdictOf = (row: CompareRow) => verdictWords(row, reference, verdicts, t);
  const tables = [{ what: 'results', label: t('export.results'), table: compareTable(rows, verdictOf) }];
  return (
    <section className="compare" aria-label={t('compare.label')} data-testid="compare">
      <h2>{t('compare.heading')}</h2>
      <ShareResult to={path} />
      <ExportAboutContext value={about}>
        <div className="compare__charts">
          {FIGURES.map(({ title, ...chart }) => (
            <Suspense key={chart.testId} fallback={<ChartLoading title={t(title)} />}>
              <FigureChart {...chart} title={t(title)} rows={rows} serverOrder={serverOrder} />
            </Suspense>
          ))}
        </div>
        <ExportMenu stem={EXPORT_STEM} label={t('export.comparisonLabel')} tables={tables} />
      </ExportAboutContext>
      {reference && rows.length > 1 ? (
        <p className="compare__method" data-testid="compare-method">
          {t('compare.verdict.method', { reference: reference.label })}
        </p>
      ) : null}
      {verdictError ? <p role="alert">{t('compare.verdict.failed', { error: verdictError.message })}</p> : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('compare.tableLabel')}>
        <table className="compare__table" data-testid="compare-table">
          <thead>
            <tr>
              <th scope="col">{t('compare.columns.result')}</th>
              <th scope="col">{t('compare.columns.qps')}</th>
              <th scope="col">{t('figures.p50')}</th>
              <th scope="col">{t('figures.p99')}</th>
              <th scope="col">{t('compare.columns.cpu')}</th>
              <th scope="col">{t('compare.columns.rss')}</th>
              <th scope="col">{t('compare.columns.threads')}</th>
              <th scope="col">{t('compare.columns.verdict')}</th>
              <th scope="col">{t('compare.columns.note')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                <td>{qpsWithSpread(row)}</td>
                <td>{dash(row.p50_us, formatLatencyUs)}</td>
                <td>{dash(row.p99_us, formatLatencyUs)}</td>
                <td>{dash(row.cpu_percent, formatPercent)}</td>
                <td>{dash(row.rss_bytes, formatMiB)}</td>
                <td>{dash(row.threads, formatInt)}</td>
                <td data-testid="compare-verdict">{verdictOf(row)}</td>
                <td>{row.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
