import { Link } from 'react-router';

import { useEndClass } from '../hooks/use-classes';
import { joinLink } from '../lib/join-code';
import type { Class } from '../lib/people-schemas';

import { FormError } from './form-error';

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** One class: its name, the join code large enough to read from the back of a room, the
 *  join link (which pre-fills the code), how many students have joined, and the way to its
 *  page (roster, queue, board). */
export function ClassCard({ klass }: { klass: Class }) {
  const link = joinLink(klass.join_code);
  const ended = klass.ended_at !== null;
  return (
    <article className={`class-card${ended ? ' class-card--ended' : ''}`} data-testid="class-card" aria-label={klass.name}>
      <header className="class-card__header">
        <h2 className="class-card__name">{klass.name}</h2>
        <p className="class-card__students" data-testid="class-students">
          {klass.students} student{klass.students === 1 ? '' : 's'}
        </p>
      </header>
      {ended ? (
        <p className="class-card__ended">Ended {day(klass.ended_at ?? '')}: its code no longer admits anyone.</p>
      ) : (
        <>
          <p className="class-card__label">Join code</p>
          <p className="class-card__code" data-testid="join-code">
            {klass.join_code}
          </p>
          <p className="class-card__link">
            or open <a href={link} data-testid="join-link">{link}</a>
          </p>
        </>
      )}
      <p className="class-card__meta">
        Created {day(klass.created_at)}
        {!ended && klass.ends_at != null ? ` · ends by itself ${new Date(klass.ends_at).toLocaleString()}` : ''}
      </p>
      <p className="class-card__open">
        <Link to={`/classes/${encodeURIComponent(klass.id)}`} className="button button--primary">
          Open class
        </Link>
      </p>
      {ended ? null : <EndClassButton klass={klass} />}
    </article>
  );
}

/** Ends the class after asking: there is no undoing it (the code stops working for good). */
function EndClassButton({ klass }: { klass: Class }) {
  const end = useEndClass();
  const confirmAndEnd = () => {
    const question = `End “${klass.name}”? Its code stops admitting anyone, its students are signed out and their waiting runs are cancelled. What ran stays readable here.`;
    if (window.confirm(question)) end.mutate(klass.id);
  };
  return (
    <div className="class-card__end">
      <button type="button" className="button" onClick={confirmAndEnd} disabled={end.isPending}>
        {end.isPending ? 'Ending…' : 'End class'}
      </button>
      <FormError error={end.error} />
    </div>
  );
}
