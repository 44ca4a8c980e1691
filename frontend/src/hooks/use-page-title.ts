import { useEffect } from 'react';

const COURSE = 'C10K Lab';

/**
 * The browser tab's title: "<page> · C10K Lab", or the course's name alone for null (the
 * home page). Undefined leaves the title as it is, while a page's data is still loading.
 */
export function usePageTitle(page: string | null | undefined): void {
  useEffect(() => {
    if (page !== undefined) document.title = page === null ? COURSE : `${page} · ${COURSE}`;
  }, [page]);
}
