import { JoinPage } from '@/features/people';

export function JoinRoute() {
  return <JoinPage />;
}
