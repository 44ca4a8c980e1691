import { useState, type SubmitEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import type { Class } from '@/lib/api-schemas';

import { useEndClass, useJoinLinks, useSetResultsDays } from '../hooks/use-classroom';
import { useNow } from '../hooks/use-now';
import { endsText } from '../lib/class-text';
import type { JoinLinks } from '../lib/classroom-schemas';

import { JoinQrCode } from './join-qr-code';

/** "in 45 min" stays true to the minute. */
const CLOCK_TICK_MS = 30_000;

/**
 * The class page's header, for the projector while students join: the class's name, its join
 * code very large, the join link and its QR code, when it ends, and End class. An ended class's
 * code admits nobody, so it is not shown. The link is the server's: it knows the address the
 * room reaches the host by, which the instructor's own browser (at localhost, say) may not.
 */
export function ClassHeader({ klass, canChange = true }: { klass: Class; canChange?: boolean }) {
  const { t } = useTranslation('classroom');
  const now = useNow(CLOCK_TICK_MS);
  const ended = klass.ended_at !== null;
  const when = endsText(klass, now, t);
  const links = useJoinLinks(klass.id, !ended);
  const link = links.data?.links[0]?.url ?? null;
  return (
    <header className={`card class-header${ended ? ' class-header--ended' : ''}`} data-testid="class-header">
      <div>
        <h1 className="class-header__name">{klass.name}</h1>
        {ended ? (
          <>
            <p className="class-header__meta" data-testid="class-ends">
              {t('header.endedNote', { when })}
            </p>
            {canChange ? <ResultsDays klass={klass} /> : null}
          </>
        ) : (
          <>
            <p className="join-code__label">{t('header.joinCode')}</p>
            <p className="join-code__code class-header__code" data-testid="join-code">
              {klass.join_code}
            </p>
            {link === null ? null : (
              <p className="join-code__link class-header__link">
                <Trans t={t} i18nKey="header.orOpen" values={{ link }} components={{ anchor: <a href={link} data-testid="join-link" /> }} />
              </p>
            )}
            {links.data ? <JoinLinkNotes links={links.data} /> : null}
            <p className="class-header__meta">
              {t('header.students', { count: klass.students })}
              {when ? <span data-testid="class-ends"> · {when}</span> : null}
            </p>
            {canChange ? (
              <>
                <ResultsDays klass={klass} />
                <EndClassButton klass={klass} />
              </>
            ) : null}
          </>
        )}
      </div>
      {ended || link === null ? null : <JoinQrCode link={link} />}
    </header>
  );
}

/**
 * What the instructor should know about the link shown: that it works only on this machine
 * (and what to change), that it is this machine's network address because the page was opened
 * as localhost, and the machine's other addresses, for a room on another network.
 */
function JoinLinkNotes({ links }: { links: JoinLinks }) {
  const { t } = useTranslation('classroom');
  const others = links.links.slice(1);
  return (
    <>
      {links.warning ? (
        <p className="class-header__warning" role="alert" data-testid="join-link-warning">
          {t(links.warning === 'listens-on-loopback' ? 'header.listensOnLoopback' : 'header.noNetworkAddress')}
        </p>
      ) : links.opened_on_host ? (
        <p className="class-header__meta" data-testid="join-link-note">
          {t('header.openedOnHost')}
        </p>
      ) : null}
      {others.length > 0 ? (
        <details className="class-header__others">
          <summary>{t('header.otherAddresses', { count: others.length })}</summary>
          <ul>
            {others.map((other) => (
              <li key={other.url}>
                <a href={other.url}>{other.url}</a>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

/** The server's bounds on how long students keep their results. */
const MAX_RESULTS_DAYS = 90;

/** How long after the class ends its students may read their results, and a way to change it
 *  (after the end too: none takes their access away at once). */
function ResultsDays({ klass }: { klass: Class }) {
  const { t } = useTranslation('classroom');
  const save = useSetResultsDays(klass.id);
  const [editing, setEditing] = useState(false);
  const [days, setDays] = useState(String(klass.results_days));
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(Number(days), { onSuccess: () => { setEditing(false); } });
  };
  if (!editing) {
    return (
      <p className="class-header__meta" data-testid="results-days">
        {t('header.resultsDays', { count: klass.results_days })}{' '}
        <button type="button" className="button button--small" onClick={() => { setEditing(true); }}>
          {t('header.change')}
        </button>
      </p>
    );
  }
  return (
    <form className="class-header__meta class-header__days" onSubmit={submit} aria-label={t('header.resultsDaysLabel')}>
      <label>
        {t('header.resultsDaysLabel')}{' '}
        <input type="number" min={0} max={MAX_RESULTS_DAYS} required value={days} onChange={(e) => { setDays(e.target.value); }} />
      </label>{' '}
      <button type="submit" className="button button--small" disabled={save.isPending}>
        {t('header.save')}
      </button>{' '}
      <button type="button" className="button button--small" onClick={() => { setEditing(false); }}>
        {t('header.cancel')}
      </button>
      <ActionError error={save.error} />
    </form>
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
