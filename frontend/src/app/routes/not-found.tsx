import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { usePageTitle } from '@/hooks/use-page-title';

export function NotFoundRoute() {
  const { t } = useTranslation();
  usePageTitle(t('app.notFound'));
  return (
    <div className="page">
      <h1>{t('app.notFound')}</h1>
      <p>
        <Link to="/">{t('app.backToCourse')}</Link>
      </p>
    </div>
  );
}
