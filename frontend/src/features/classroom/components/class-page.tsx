import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorBoundary } from '@/components/error-boundary';
import { ErrorMessage, Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';
import type { Class } from '@/lib/api-schemas';

import { csvUrl } from '../api/classroom';
import { useClassStream } from '../hooks/use-class-stream';
import { classKeys, useBoard, useClassroomClass, useLessonList } from '../hooks/use-classroom';
import { experimentKey, type Titles } from '../lib/class-text';

import { ClassBoard } from './class-board';
import { ClassExercises } from './class-exercises';
import { ClassHeader } from './class-header';
import { LivePanel } from './live-panel';
import { PauseToggle } from './pause-toggle';
import { PresentationBar } from './presentation-bar';
import { QueueTable } from './queue-table';
import { RosterTable } from './roster-table';
import { RunnersTable } from './runners-table';
import { StaffPanel } from './staff-panel';

import './classroom.css';

/**
 * /#/classes/:id, the instructor's page while teaching: the join code for the room, what is
 * presented, who is here and where, the exercises assigned and the gradebook, the class's queue
 * (pause, cancel, export), the runner hosts and what each is running, and the board.
 * The class stream keeps the class (paused, ended) and the presentation current.
 */
export function ClassPage({ classId }: { classId: string }) {
  const { t } = useTranslation('classroom');
  const klass = useClassroomClass(classId);
  // An ended class has nothing left to follow.
  const live = klass.data?.ended_at === null;
  const stream = useClassStream(live ? classId : null);
  const lessons = useLessonList();
  const board = useBoard(classId);
  const client = useQueryClient();
  usePageTitle(klass.data?.name);

  // The stream's `class` is the newest word on it: the page reads one copy, the query's. The
  // stream is the whole class's, so it carries no join code: the instructor's own answer does.
  useEffect(() => {
    const fresh = stream.klass;
    if (!fresh) return;
    client.setQueryData<Class>(classKeys.klass(classId), (known) => ({
      ...fresh,
      join_code: known?.join_code ?? fresh.join_code,
    }));
  }, [client, classId, stream.klass]);
  // It ended by itself (its `ends_at`) or in another tab: ask for the class as it is now.
  useEffect(() => {
    if (stream.ended) void client.invalidateQueries({ queryKey: classKeys.klass(classId) });
  }, [client, classId, stream.ended]);

  const titles = useMemo<Titles>(
    () => ({
      lessons: new Map((lessons.data ?? []).map((l) => [l.slug, l.title])),
      experiments: new Map((board.data?.experiments ?? []).map((e) => [experimentKey(e.lesson, e.experiment), e.title])),
    }),
    [lessons.data, board.data],
  );

  if (klass.isPending) return <Loading label={t('page.loading')} />;
  if (klass.isError) {
    return (
      <div className="page">
        <ErrorMessage title={t('page.loadError')} error={klass.error} />
        <p>
          <Link to="/classes">{t('page.backToClasses')}</Link>
        </p>
      </div>
    );
  }

  const ended = klass.data.ended_at !== null;
  // A teaching assistant sees everything and helps students; the class's teachers change it.
  const teaches = klass.data.role !== 'assistant';
  const changes = !ended && teaches;
  return (
    <div className="class-page" data-testid="class-page">
      <p>
        <Link to="/classes">{t('page.backToClasses')}</Link>
      </p>
      <ClassHeader klass={klass.data} canChange={teaches} />
      {changes ? <PresentationBar classId={classId} presentation={stream.presentation} /> : null}
      {!changes ? null : (
        <section className="class-page__section" aria-labelledby="class-live">
          <h2 id="class-live">{t('page.live')}</h2>
          <LivePanel classId={classId} live={stream.live} />
        </section>
      )}

      <section className="class-page__section" aria-labelledby="class-students">
        <h2 id="class-students">{t('page.students')}</h2>
        <ErrorBoundary name={t('page.studentsBoundary')}>
          <RosterTable classId={classId} live={!ended} lessons={lessons.data} canChange={teaches} />
        </ErrorBoundary>
      </section>

      <section className="class-page__section" aria-labelledby="class-exercises">
        <h2 id="class-exercises">{t('page.exercises')}</h2>
        <ErrorBoundary name={t('page.exercisesBoundary')}>
          <ClassExercises classId={classId} live={!ended} lessons={lessons.data} canChange={teaches} />
        </ErrorBoundary>
      </section>

      <section className="class-page__section" aria-labelledby="class-runs">
        <h2 id="class-runs">{t('page.runs')}</h2>
        {changes ? <PauseToggle classId={classId} paused={klass.data.paused} /> : null}
        <p>
          <Trans
            t={t}
            i18nKey="page.exportCsv"
            components={{ anchor: <a className="button button--small" href={csvUrl(classId)} download data-testid="class-export-csv" /> }}
          />
        </p>
        <ErrorBoundary name={t('page.queueBoundary')}>
          <QueueTable classId={classId} live={!ended} titles={titles} />
        </ErrorBoundary>
      </section>

      <section className="class-page__section" aria-labelledby="class-runners">
        <h2 id="class-runners">{t('page.runners')}</h2>
        <ErrorBoundary name={t('page.runnersBoundary')}>
          <RunnersTable classId={classId} live={!ended} />
        </ErrorBoundary>
      </section>

      <section className="class-page__section" aria-labelledby="class-board">
        <h2 id="class-board">{t('page.board')}</h2>
        <ClassBoard classId={classId} canSpotlight={changes} />
      </section>

      <section className="class-page__section" aria-labelledby="class-staff">
        <h2 id="class-staff">{t('staff.title')}</h2>
        <ErrorBoundary name={t('staff.title')}>
          <StaffPanel classId={classId} owner={klass.data.role === 'owner'} />
        </ErrorBoundary>
      </section>
    </div>
  );
}
