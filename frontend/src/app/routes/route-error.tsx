import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function RouteErrorRoute() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : t('unknownError');
  return (
    <div className="page" role="alert">
      <h1>{t('app.routeError')}</h1>
      <p>{message}</p>
      <p>
        <Link to="/">{t('app.backToCourse')}</Link>
      </p>
    </div>
  );
}
