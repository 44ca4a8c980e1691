import { useTranslation } from 'react-i18next';

import { LabPage } from '@/features/bench';
import { usePageTitle } from '@/hooks/use-page-title';

export function LabRoute() {
  const { t } = useTranslation();
  usePageTitle(t('app.titles.lab'));
  return <LabPage />;
}
