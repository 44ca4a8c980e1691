import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * A course page whose content could not be fetched: the page's heading says what failed ("Lesson
 * not found"), the alert under it why, in the reader's words, and a link leads back home.
 */
export function PageLoadFailure({ title, error }: { title: string; error: unknown }) {
  const { t } = useTranslation('lessons');
  return (
    <div className="page">
      <h1>{title}</h1>
      <div className="danger-box error-message" role="alert">
        <p>{error instanceof Error ? error.message : String(error)}</p>
      </div>
      <p>
        <Link to="/">{t('page.backToLessons')}</Link>
      </p>
    </div>
  );
}
