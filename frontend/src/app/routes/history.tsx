import { HistoryPage } from '@/features/bench';
import { usePageTitle } from '@/hooks/use-page-title';

export function HistoryRoute() {
  usePageTitle('Your history');
  return <HistoryPage />;
}
