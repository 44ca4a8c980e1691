import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The people pages in solo mode (`make up`), which has no logins and no classes. */
export function SoloModeNote() {
  const { t } = useTranslation('people');
  return (
    <div className="page people-page" data-testid="solo-mode">
      <h1>{t('solo.heading')}</h1>
      <p>
        <Trans t={t} i18nKey="solo.text" components={{ code: <code /> }} />
      </p>
      <p>
        <Link to="/">{t('backToCourse')}</Link>
      </p>
    </div>
  );
}
