import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Loading } from '@/components/loading';
import { exerciseListQuery } from '@/hooks/use-exercises';
import { useLanguage } from '@/hooks/use-language';
import { formatListDate } from '@/lib/dates';

import { listVariants, VARIANTS_KEY, type Variant } from '../api/variants';
import { variantState, variantTone } from '../lib/variant-status';

/** One saved edit: what it is (an edit of a server, or an answer to which exercise), where its
 *  check stands as a coloured badge, and when it was saved. */
function VariantItem({ variant, current, exerciseTitle }: { variant: Variant; current: boolean; exerciseTitle: (slug: string) => string }) {
  const { t, i18n } = useTranslation('edit');
  const state = variantState(variant);
  const name = variant.exercise
    ? t('variantList.answer', { exercise: exerciseTitle(variant.exercise) })
    : t('variantList.edit', { server: variant.server });
  return (
    <li aria-current={current ? 'true' : undefined} data-testid="variant-item" data-state={state} data-exercise={variant.exercise ?? undefined}>
      <Link to={`/variants/${encodeURIComponent(variant.id)}`}>{name}</Link>
      <span className={`badge variant-state variant-state--${variantTone(state)}`}>
        <span className="visually-hidden">{t('variantList.statusLabel')} </span>
        {t(`variantList.state.${state}`)}
      </span>
      <span className="edit__muted"> · {t('variantList.savedAt', { when: formatListDate(variant.created_at, i18n.resolvedLanguage) })}</span>
    </li>
  );
}

/** How often the list is asked again while one of its edits is being checked. */
const CHECKING_REFRESH_MS = 2_000;

/** "Your edited servers": every file the learner built, newest first, each at its own page,
 *  each saying whether it compiled, passed its check, or which exercise it answers and how. */
export function VariantList({ current }: { current?: string | null }) {
  const { t } = useTranslation('edit');
  const variants = useQuery({
    queryKey: VARIANTS_KEY,
    queryFn: ({ signal }) => listVariants(signal),
    // An edit still being checked says how its check went once it has: asked again until then.
    refetchInterval: (query) => (query.state.data?.some((v) => variantState(v) === 'checking') ? CHECKING_REFRESH_MS : false),
  });
  const exercises = useQuery(exerciseListQuery(useLanguage()));
  const titles = new Map((exercises.data ?? []).map((e) => [e.slug, e.title]));
  const exerciseTitle = (slug: string) => titles.get(slug) ?? slug;
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
            <VariantItem key={v.id} variant={v} current={v.id === current} exerciseTitle={exerciseTitle} />
          ))}
        </ol>
      )}
    </section>
  );
}
