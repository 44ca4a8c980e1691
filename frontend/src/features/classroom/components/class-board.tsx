import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ActionError } from '@/components/action-error';
import { ErrorBoundary } from '@/components/error-boundary';
import { ErrorMessage, Loading } from '@/components/loading';

import { useBoard, usePresent } from '../hooks/use-classroom';
import { hasResults } from '../lib/board-chart-data';
import type { BoardExperiment, BoardResult } from '../lib/classroom-schemas';

import { BoardBarsChart, BoardLinesChart } from './board-charts';
import { RunResultsTable, SeriesResultsTable } from './board-tables';

import './classroom.css';

interface ClassBoardProps {
  classId: string;
  /** The instructor's board: a Spotlight button per result, and Present per experiment. */
  canSpotlight: boolean;
}

/**
 * The class board: for each experiment of the course someone has run, every student's latest
 * result beside the recorded reference, as charts and a table with the class's spread. The
 * instructor's copy can put any result on every screen; a student's is read-only.
 */
export function ClassBoard({ classId, canSpotlight }: ClassBoardProps) {
  const { t } = useTranslation('classroom');
  const board = useBoard(classId);
  const [showAll, setShowAll] = useState(false);
  const toggleId = useId();
  if (board.isPending) return <Loading label={t('board.loading')} />;
  if (board.isError) return <ErrorMessage title={t('board.loadError')} error={board.error} />;

  const withResults = board.data.experiments.filter(hasResults);
  const shown = showAll ? board.data.experiments : withResults;
  const hidden = board.data.experiments.length - withResults.length;
  return (
    <div className="class-board" data-testid="class-board">
      <p className="class-page__toolbar">
        <input
          id={toggleId}
          type="checkbox"
          checked={showAll}
          onChange={(e) => {
            setShowAll(e.target.checked);
          }}
        />
        <label htmlFor={toggleId}>{t('board.showAll', { hidden })}</label>
      </p>
      {shown.length === 0 ? (
        <p data-testid="board-empty">{t('board.empty')}</p>
      ) : (
        <div className="class-board__experiments">
          {shown.map((experiment) => (
            <ErrorBoundary key={`${experiment.lesson}/${experiment.experiment}`} name={t('board.boundary', { title: experiment.title })}>
              <BoardExperimentCard classId={classId} experiment={experiment} canSpotlight={canSpotlight} />
            </ErrorBoundary>
          ))}
        </div>
      )}
    </div>
  );
}

interface CardProps {
  classId: string;
  experiment: BoardExperiment;
  canSpotlight: boolean;
}

/** One experiment: its QPS and p99 charts, then the table. */
function BoardExperimentCard({ classId, experiment, canSpotlight }: CardProps) {
  const { t } = useTranslation('classroom');
  const present = usePresent(classId);
  const what = { lesson: experiment.lesson, experiment: experiment.experiment, title: experiment.title };
  const spotlight = (result: BoardResult) => {
    present.mutate(
      result.run_id !== null ? { ...what, run_id: result.run_id } : { ...what, sweep_id: result.sweep_id ?? undefined },
    );
  };
  const Chart = experiment.kind === 'series' ? BoardLinesChart : BoardBarsChart;
  const Table = experiment.kind === 'series' ? SeriesResultsTable : RunResultsTable;
  return (
    <section className="board-experiment" data-testid="board-experiment" aria-label={experiment.title}>
      <header className="board-experiment__header">
        <div>
          <h3 className="board-experiment__title">{experiment.title}</h3>
          <p className="board-experiment__lesson">
            <Link to={`/lessons/${encodeURIComponent(experiment.lesson)}`}>{experiment.lesson_title}</Link>
            {' · '}
            {t('board.results', { count: experiment.results.length })}
          </p>
        </div>
        {canSpotlight ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              present.mutate(what);
            }}
            disabled={present.isPending}
          >
            {t('board.present')}
          </button>
        ) : null}
      </header>
      {hasResults(experiment) || experiment.reference ? (
        <div className="board-experiment__charts">
          <Chart experiment={experiment} metric="qps" />
          <Chart experiment={experiment} metric="p99_us" />
        </div>
      ) : null}
      <Table experiment={experiment} onSpotlight={canSpotlight ? spotlight : undefined} spotlighting={present.isPending} />
      {experiment.not_run.length > 0 ? (
        <p className="board-experiment__not-run" data-testid="board-not-run">
          {t('board.notRun', { count: experiment.not_run.length, names: experiment.not_run.map((s) => s.name).join(', ') })}
        </p>
      ) : null}
      <ActionError error={present.error} />
    </section>
  );
}
