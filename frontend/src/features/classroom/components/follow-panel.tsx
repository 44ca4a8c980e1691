import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorBoundary } from '@/components/error-boundary';
import { Loading } from '@/components/loading';
import { useLanguage } from '@/hooks/use-language';
import type { RunEventFrame, Sweep } from '@/lib/api-schemas';

import { presentedTitles } from '../lib/class-text';
import type { Presentation } from '../lib/classroom-schemas';

import './classroom.css';

export interface FollowPanelProps {
  /** What the instructor presents now (from the class stream); null closes the panel. */
  presentation: Presentation | null;
  /** The presented run's events so far, in order. */
  runFrames: RunEventFrame[];
  /** The presented sweep's table, once the stream has sent it. */
  sweep: Sweep | null;
  /** Draws a presented run, titled as presented (its exports' title): the app layer supplies
   *  it, since the bench feature draws runs. */
  renderRun: (runId: string, frames: RunEventFrame[], title: string) => ReactNode;
  /** Draws a presented sweep's table and charts, titled as presented. */
  renderSweep: (sweep: Sweep, title: string) => ReactNode;
  /** Draws an experiment presented before its run: its recorded reference. */
  renderReference?: (lesson: string, experiment: string) => ReactNode;
}

/** A presentation is new when any of this changes: presenting again replaces it. */
function identity(p: Presentation): string {
  return [p.started_at, p.lesson, p.experiment, p.run_id, p.sweep_id].join('|');
}

/**
 * A drawer on the right (a bottom sheet on narrow screens) that opens whenever the instructor
 * presents something, so every student sees the same run or sweep while it is discussed.
 * The student may minimise it; the next presentation opens it again.
 */
export function FollowPanel({ presentation, runFrames, sweep, renderRun, renderSweep, renderReference }: FollowPanelProps) {
  const { t } = useTranslation('classroom');
  const language = useLanguage();
  // Which presentation was minimised: a new one is shown open again without an effect.
  const [minimisedFor, setMinimisedFor] = useState<string | null>(null);
  if (!presentation) return null;
  const id = identity(presentation);
  const minimised = minimisedFor === id;
  const { title, lesson } = presentedTitles(presentation, language);
  return (
    <aside
      className={`follow-panel ${minimised ? 'follow-panel--minimised' : 'follow-panel--open'}`}
      aria-label={t('follow.label')}
      data-testid="follow-panel"
    >
      <header className="follow-panel__header">
        <div className="follow-panel__heading">
          <h2 className="follow-panel__title" data-testid="follow-title">
            {title}
          </h2>
          <p className="follow-panel__who" data-testid="follow-who">
            {presentation.spotlight ? t('follow.spotlight', { name: presentation.spotlight.name }) : t('follow.byInstructor')}
          </p>
        </div>
        <button
          type="button"
          className="button button--small"
          aria-expanded={!minimised}
          onClick={() => {
            setMinimisedFor(minimised ? null : id);
          }}
        >
          {minimised ? t('follow.show') : t('follow.minimise')}
        </button>
      </header>
      {minimised ? null : (
        <div className="follow-panel__body" data-testid="follow-body">
          <p>
            <Link to={`/lessons/${encodeURIComponent(presentation.lesson)}`}>
              {t('follow.openLesson', { title: lesson })}
            </Link>
          </p>
          <ErrorBoundary name={t('follow.boundary')}>
            <PresentedBody
              presentation={presentation}
              title={title}
              runFrames={runFrames}
              sweep={sweep}
              renderRun={renderRun}
              renderSweep={renderSweep}
              renderReference={renderReference}
            />
          </ErrorBoundary>
        </div>
      )}
    </aside>
  );
}

function PresentedBody({
  presentation,
  runFrames,
  sweep,
  renderRun,
  renderSweep,
  renderReference,
  title,
}: FollowPanelProps & { presentation: Presentation; title: string }) {
  const { t } = useTranslation('classroom');
  if (presentation.run_id !== null) return <>{renderRun(presentation.run_id, runFrames, title)}</>;
  if (presentation.sweep_id !== null) {
    return sweep ? <>{renderSweep(sweep, title)}</> : <Loading label={t('follow.waitingSweep')} />;
  }
  if (presentation.experiment && renderReference) {
    // Before the run: the reference, so there is a chart to look at while it is explained.
    return (
      <>
        <p>{t('follow.beforeRun')}</p>
        {renderReference(presentation.lesson, presentation.experiment)}
      </>
    );
  }
  return <p>{t('follow.lessonOnly')}</p>;
}
