import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Loading } from '@/components/loading';

import { formatListDate } from '@/lib/dates';
import { listVariants, VARIANTS_KEY } from '../api/variants';

/** "Your edited servers": every file the learner built, newest first, each at its own page. */
export function VariantList({ current }: { current?: string | null }) {
  const { t, i18n } = useTranslation('edit');
  const variants = useQuery({ queryKey: VARIANTS_KEY, queryFn: ({ signal }) => listVariants(signal) });
  return (
    <section className="variant-list" aria-labelledby="variant-list-title" data-testid="variant-list">
      <h2 id="variant-list-title">{t('variantList.title')}</h2>
      {variants.isPending ? (
        <Loading />
      ) : variants.isError ? (
        <p role="alert">{t('variantList.loadError', { detail: variants.error.message })}</p>
      ) : variants.data.length === 0 ? (
        <p className="edit__muted">{t('variantList.none')}</p>
      ) : (
        <ol>
          {variants.data.map((v) => (
            <li key={v.id} aria-current={v.id === current ? 'true' : undefined}>
              <Link to={`/variants/${encodeURIComponent(v.id)}`}>
                {v.server} <span className="edit__muted">· {formatListDate(v.created_at, i18n.resolvedLanguage)}</span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
