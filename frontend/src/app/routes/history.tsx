import { useTranslation } from 'react-i18next';

import { HistoryPage } from '@/features/bench';
import { usePageTitle } from '@/hooks/use-page-title';

export function HistoryRoute() {
  const { t } = useTranslation();
  usePageTitle(t('app.titles.history'));
  return <HistoryPage />;
}
