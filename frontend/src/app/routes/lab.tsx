import { LabPage } from '@/features/bench';
import { usePageTitle } from '@/hooks/use-page-title';

export function LabRoute() {
  usePageTitle('Lab');
  return <LabPage />;
}
