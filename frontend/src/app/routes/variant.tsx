import { useParams } from 'react-router';

import { VariantPage } from '@/features/edit';

/** /#/variants/:id: a saved edit's page. */
export function VariantRoute() {
  const { id = '' } = useParams();
  return <VariantPage key={id} variantId={id} />;
}
