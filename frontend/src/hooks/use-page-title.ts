import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The browser tab's title: "<page> · C10K Lab", or the course's name alone for null (the
 * home page). Undefined leaves the title as it is, while a page's data is still loading.
 * Written again when the reader switches language (the page's own name is the caller's).
 */
export function usePageTitle(page: string | null | undefined): void {
  const { t } = useTranslation();
  useEffect(() => {
    if (page === undefined) return;
    const course = t('app.name');
    document.title = page === null ? course : t('app.pageTitle', { page, course });
  }, [page, t]);
}
