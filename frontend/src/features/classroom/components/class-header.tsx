import { useEffect, useState } from 'react';

import { useEndClass } from '../hooks/use-classroom';
import { endsText, joinLink } from '../lib/class-text';
import type { ClassroomClass } from '../lib/classroom-schemas';

import { ActionError } from './action-error';
import { JoinQrCode } from './join-qr-code';

/** "in 45 min" stays true to the minute. */
const CLOCK_TICK_MS = 30_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, intervalMs);
    return () => {
      clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}

/**
 * The class page's header, for the projector while students join: the class's name, its join
 * code very large, the join link and its QR code, when it ends, and End class. An ended class's
 * code admits nobody, so it is not shown.
 */
export function ClassHeader({ klass }: { klass: ClassroomClass }) {
  const now = useNow(CLOCK_TICK_MS);
  const ended = klass.ended_at !== null;
  const when = endsText(klass, now);
  const link = joinLink(klass.join_code);
  return (
    <header className={`class-header${ended ? ' class-header--ended' : ''}`} data-testid="class-header">
      <div>
        <h1 className="class-header__name">{klass.name}</h1>
        {ended ? (
          <p className="class-header__meta" data-testid="class-ends">
            {when}: its code no longer admits anyone. What ran stays readable here.
          </p>
        ) : (
          <>
            <p className="class-header__label">Join code</p>
            <p className="class-header__code" data-testid="join-code">
              {klass.join_code}
            </p>
            <p className="class-header__link">
              or open <a href={link} data-testid="join-link">{link}</a>
            </p>
            <p className="class-header__meta">
              {klass.students} student{klass.students === 1 ? '' : 's'}
              {when ? <span data-testid="class-ends"> · {when}</span> : null}
            </p>
            <EndClassButton klass={klass} />
          </>
        )}
      </div>
      {ended ? null : <JoinQrCode link={link} />}
    </header>
  );
}

/** Ends the class after asking: there is no undoing it (the code stops working for good). */
function EndClassButton({ klass }: { klass: ClassroomClass }) {
  const end = useEndClass(klass.id);
  const confirmAndEnd = () => {
    const question = `End “${klass.name}”? Its code stops admitting anyone, its students are signed out and their waiting runs are cancelled. What ran stays readable here.`;
    if (window.confirm(question)) end.mutate();
  };
  return (
    <div className="class-header__end">
      <button type="button" className="button" onClick={confirmAndEnd} disabled={end.isPending}>
        {end.isPending ? 'Ending…' : 'End class'}
      </button>
      <ActionError error={end.error} />
    </div>
  );
}
