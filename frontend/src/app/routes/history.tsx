import { useTranslation } from 'react-i18next';

// The page's own module, not the feature's index: Rolldown gives a route everything an index
// re-exports (rolldown/rolldown#8920), and this page would load the lesson widget's highlighter.
import { HistoryPage } from '@/features/bench/components/lab/history-page';
import { usePageTitle } from '@/hooks/use-page-title';

export function HistoryRoute() {
  const { t } = useTranslation();
  usePageTitle(t('app.titles.history'));
  return <HistoryPage />;
}
