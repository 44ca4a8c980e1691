import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { usePageTitle } from '@/hooks/use-page-title';
import { useServers } from '@/hooks/use-servers';
import { comparedFromSearch, MAX_COMPARED, type CompareAddress } from '@/lib/share-link';

import { CompareView } from './lab/compare-view';

import './permalink.css';

/** Why a comparison's address names nothing it can show, and how to get a good one. */
function BadAddress({ address }: { address: Extract<CompareAddress, { ok: false }> }) {
  const { t } = useTranslation('bench');
  usePageTitle(t('shared.badAddress'));
  const advice =
    address.problem === 'malformed'
      ? t('shared.malformed', { item: address.item ?? '' })
      : address.problem === 'tooMany'
        ? t('shared.tooMany', { max: MAX_COMPARED })
        : t('shared.none');
  return (
    <div className="page permalink" role="alert" data-testid="permalink-problem" data-status="400">
      <h1>{t('shared.badAddress')}</h1>
      <p>{advice}</p>
      <p>
        <Link to="/history">{t('history.heading')}</Link>
      </p>
    </div>
  );
}

/**
 * `/#/compare?results=run:…,sweep:…`: a History comparison on a page of its own, drawn from the
 * stored results for whoever may see each of them (a result they may not: the permalink's
 * worded 403 or 404), so a comparison can be shared as a link.
 */
export function ComparePermalink() {
  const { t } = useTranslation('bench');
  const [params] = useSearchParams();
  const address = comparedFromSearch(params);
  const servers = useServers();
  const count = address.ok ? address.results.length : 0;
  usePageTitle(t('shared.compareTitle', { count }));
  if (!address.ok) return <BadAddress address={address} />;
  return (
    <article className="permalink" data-testid="compare-permalink" aria-labelledby="permalink-title">
      <header>
        <p className="kicker">{t('shared.compareKicker')}</p>
        <h1 id="permalink-title">{t('shared.compareTitle', { count })}</h1>
        <p className="permalink__muted">{t('shared.compareIntro')}</p>
      </header>
      <CompareView entries={address.results} serverOrder={(servers.data ?? []).map((s) => s.id)} standalone />
    </article>
  );
}
