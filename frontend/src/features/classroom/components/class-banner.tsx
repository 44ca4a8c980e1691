import { Link } from 'react-router';

import type { ClassroomClass } from '../lib/classroom-schemas';

import './classroom.css';

interface ClassBannerProps {
  /** The class as the class stream last sent it; nothing is shown before it comes. */
  klass: ClassroomClass | null;
  /** The stream said `ended`. */
  ended: boolean;
}

/**
 * Under the header, for a student in a class: which class, a link to its board, and — the
 * reason it exists — that runs are paused, so a run that does not start is not a mystery.
 */
export function ClassBanner({ klass, ended }: ClassBannerProps) {
  if (!klass) return null;
  return (
    <div className="class-banner" data-testid="class-banner" role="region" aria-label="Your class">
      <p className="class-banner__inner">
        {ended || klass.ended_at !== null ? (
          <span>
            <strong>{klass.name}</strong> has ended.
          </span>
        ) : (
          <>
            <span>
              You are in <strong>{klass.name}</strong>
            </span>
            <Link to={`/classes/${encodeURIComponent(klass.id)}/board`}>Class board</Link>
            {klass.paused ? (
              <span className="class-banner__paused" role="status" data-testid="class-paused">
                Runs are paused by your instructor: yours waits in the queue until they resume.
              </span>
            ) : null}
          </>
        )}
      </p>
    </div>
  );
}
