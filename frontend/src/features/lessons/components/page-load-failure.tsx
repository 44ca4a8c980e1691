import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorMessage } from '@/components/loading';

/** A course page whose content could not be fetched: what failed, and the way back home. */
export function PageLoadFailure({ title, error }: { title: string; error: unknown }) {
  const { t } = useTranslation('lessons');
  return (
    <div className="page">
      <ErrorMessage title={title} error={error} />
      <p>
        <Link to="/">{t('page.backToLessons')}</Link>
      </p>
    </div>
  );
}
