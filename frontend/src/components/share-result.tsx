import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { copyText } from '@/lib/export';
import { absoluteLink } from '@/lib/share-link';

import './share-result.css';

type Status = 'none' | 'copied' | 'refused';

/**
 * "Share this result": copies the absolute link of the result on show (its permalink, which a
 * fresh browser opens at the result itself, not at a setup to run) and shows it, selectable,
 * in case the clipboard is refused (an http:// page other than localhost has none).
 */
export function ShareResult({ to }: { to: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('none');
  const link = absoluteLink(to);
  const share = async () => {
    setStatus((await copyText(link)) ? 'copied' : 'refused');
  };
  return (
    <div className="share-result" data-testid="share-result">
      <button type="button" className="button button--small" onClick={() => void share()} data-testid="share-result-button">
        {t('share.button')}
      </button>
      <span role="status" className="share-result__status">
        {status === 'copied' ? t('share.copied') : null}
        {status === 'refused' ? t('share.refused') : null}
      </span>
      {status !== 'none' ? (
        <a className="share-result__link" href={link} aria-label={t('share.linkLabel')} data-testid="share-result-link">
          {link}
        </a>
      ) : null}
    </div>
  );
}
