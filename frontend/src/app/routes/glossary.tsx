import { GlossaryPage } from '@/features/lessons';

export function GlossaryRoute() {
  return <GlossaryPage />;
}
