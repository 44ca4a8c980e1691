import { useTranslation } from 'react-i18next';

import type { UsePresenting } from '../hooks/use-presenting';

/**
 * An instructor's Present button, or "Presenting · Stop" on the block the class is following.
 * What presenting does (which class, the HTTP calls) is the app's; the widget only asks.
 */
export function PresentControls({ presenting, onPresent }: { presenting: UsePresenting; onPresent: () => void }) {
  const { t } = useTranslation('bench');
  const { presented, pending, error, stop } = presenting;
  return (
    <>
      {presented ? (
        <p className="present-state" data-testid="presenting">
          <span className="present-state__live">{t('present.presenting')}</span>
          <span aria-hidden="true"> · </span>
          <button
            type="button"
            className="button button--small"
            aria-label={t('present.stopLabel')}
            disabled={pending}
            onClick={() => void stop()}
          >
            {t('present.stop')}
          </button>
        </p>
      ) : (
        <button
          type="button"
          className="button"
          title={t('present.title')}
          disabled={pending}
          onClick={onPresent}
        >
          {t('present.present')}
        </button>
      )}
      {error ? (
        <p className="experiment__error" role="alert" data-testid="present-error">
          {error}
        </p>
      ) : null}
    </>
  );
}
