import { Trans, useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import type { Class } from '@/lib/api-schemas';

import { useEndClass } from '../hooks/use-classroom';
import { useNow } from '../hooks/use-now';
import { endsText, joinLink } from '../lib/class-text';

import { JoinQrCode } from './join-qr-code';

/** "in 45 min" stays true to the minute. */
const CLOCK_TICK_MS = 30_000;

/**
 * The class page's header, for the projector while students join: the class's name, its join
 * code very large, the join link and its QR code, when it ends, and End class. An ended class's
 * code admits nobody, so it is not shown.
 */
export function ClassHeader({ klass }: { klass: Class }) {
  const { t } = useTranslation('classroom');
  const now = useNow(CLOCK_TICK_MS);
  const ended = klass.ended_at !== null;
  const when = endsText(klass, now, t);
  const link = joinLink(klass.join_code);
  return (
    <header className={`card class-header${ended ? ' class-header--ended' : ''}`} data-testid="class-header">
      <div>
        <h1 className="class-header__name">{klass.name}</h1>
        {ended ? (
          <p className="class-header__meta" data-testid="class-ends">
            {t('header.endedNote', { when })}
          </p>
        ) : (
          <>
            <p className="join-code__label">{t('header.joinCode')}</p>
            <p className="join-code__code class-header__code" data-testid="join-code">
              {klass.join_code}
            </p>
            <p className="join-code__link class-header__link">
              <Trans t={t} i18nKey="header.orOpen" values={{ link }} components={{ anchor: <a href={link} data-testid="join-link" /> }} />
            </p>
            <p className="class-header__meta">
              {t('header.students', { count: klass.students })}
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
function EndClassButton({ klass }: { klass: Class }) {
  const { t } = useTranslation('classroom');
  const end = useEndClass(klass.id);
  const confirmAndEnd = () => {
    if (window.confirm(t('header.confirmEnd', { name: klass.name }))) end.mutate();
  };
  return (
    <div className="class-header__end">
      <button type="button" className="button" onClick={confirmAndEnd} disabled={end.isPending}>
        {end.isPending ? t('header.ending') : t('header.end')}
      </button>
      <ActionError error={end.error} />
    </div>
  );
}
