import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ActionError } from '@/components/action-error';
import type { Class } from '@/lib/api-schemas';
import { formatDateTime } from '@/lib/dates';

import { useEndClass } from '../hooks/use-classes';

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** One class: its name, the join code large enough to read from the back of a room, how many
 *  students have joined, and the way to its page, which shows the join link and its QR code
 *  on the address the room reaches (the server's to know), the roster, queue and board. */
export function ClassCard({ klass }: { klass: Class }) {
  const { t, i18n } = useTranslation('people');
  const ended = klass.ended_at !== null;
  return (
    <article className={`card class-card${ended ? ' class-card--ended' : ''}`} data-testid="class-card" aria-label={klass.name}>
      <header className="class-card__header">
        <h2 className="class-card__name">{klass.name}</h2>
        <p className="class-card__students" data-testid="class-students">
          {t('card.students', { count: klass.students })}
        </p>
      </header>
      {ended ? (
        <p className="class-card__ended">{t('card.ended', { day: day(klass.ended_at ?? '') })}</p>
      ) : (
        <>
          <p className="join-code__label">{t('card.joinCode')}</p>
          <p className="join-code__code class-card__code" data-testid="join-code">
            {klass.join_code}
          </p>
        </>
      )}
      <p className="class-card__meta">
        {!ended && klass.ends_at != null
          ? t('card.createdEnds', { day: day(klass.created_at), time: formatDateTime(new Date(klass.ends_at), i18n.resolvedLanguage) })
          : t('card.created', { day: day(klass.created_at) })}
      </p>
      <p className="class-card__open">
        <Link to={`/classes/${encodeURIComponent(klass.id)}`} className="button button--primary">
          {t('card.open')}
        </Link>
      </p>
      {ended ? null : <EndClassButton klass={klass} />}
    </article>
  );
}

/** Ends the class after asking: there is no undoing it (the code stops working for good). */
function EndClassButton({ klass }: { klass: Class }) {
  const { t } = useTranslation('people');
  const end = useEndClass();
  const confirmAndEnd = () => {
    if (window.confirm(t('card.confirmEnd', { name: klass.name }))) end.mutate(klass.id);
  };
  return (
    <div className="class-card__end">
      <button type="button" className="button" onClick={confirmAndEnd} disabled={end.isPending}>
        {end.isPending ? t('card.ending') : t('card.end')}
      </button>
      <ActionError error={end.error} testId="form-error" />
    </div>
  );
}
