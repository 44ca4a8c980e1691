import { joinLink } from '../lib/join-code';
import type { Class } from '../lib/people-schemas';

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** One class: its name, the join code large enough to read from the back of a room, the
 *  join link (which pre-fills the code), and how many students have joined. */
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
      <p className="class-card__meta">Created {day(klass.created_at)}</p>
    </article>
  );
}
