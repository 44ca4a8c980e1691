import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { Class } from '@/lib/api-schemas';
import { formatDateTime } from '@/lib/dates';

import { myResultsCsvUrl } from '../api/classroom';
import type { Live } from '../lib/classroom-schemas';

import { LiveStrip } from './live-strip';

import './classroom.css';

interface ClassBannerProps {
  /** The class as the class stream last sent it; nothing is shown before it comes. */
  klass: Class | null;
  /** The stream said `ended`. */
  ended: boolean;
  /** The timer, announcements and revealed questions, as the stream last sent them. */
  live?: Live | null;
}

/**
 * Under the header, for a student in a class: which class, a link to its board, and — the
 * reason it exists — that runs are paused, so a run that does not start is not a mystery.
 */
export function ClassBanner({ klass, ended, live = null }: ClassBannerProps) {
  const { t, i18n } = useTranslation('classroom');
  if (!klass) return null;
  const name = { name: klass.name };
  const until = klass.results_until ? formatDateTime(new Date(klass.results_until), i18n.resolvedLanguage) : null;
  return (
    <div className="class-banner" data-testid="class-banner" role="region" aria-label={t('banner.label')}>
      <p className="bar-inner class-banner__inner">
        {ended || klass.ended_at !== null ? (
          <>
            <span data-testid="class-ended-note">
              <Trans t={t} i18nKey="banner.ended" values={name} components={{ strong: <strong /> }} />
              {until ? ` ${t('banner.readOnlyUntil', { until })}` : null}
            </span>
            <Link to={`/classes/${encodeURIComponent(klass.id)}/board`}>{t('banner.board')}</Link>
            <a href={myResultsCsvUrl()} download data-testid="my-results-csv">
              {t('banner.exportMine')}
            </a>
          </>
        ) : (
          <>
            <span>
              <Trans t={t} i18nKey="banner.youAreIn" values={name} components={{ strong: <strong /> }} />
            </span>
            <Link to={`/classes/${encodeURIComponent(klass.id)}/board`}>{t('banner.board')}</Link>
            {klass.paused ? (
              <span className="class-banner__paused" role="status" data-testid="class-paused">
                {t('banner.paused')}
              </span>
            ) : null}
          </>
        )}
      </p>
      {ended || klass.ended_at !== null ? null : <LiveStrip classId={klass.id} live={live} />}
    </div>
  );
}
