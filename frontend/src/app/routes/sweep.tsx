import { useParams } from 'react-router';

import { SweepPermalink } from '@/features/bench';

/** /#/sweeps/:id: a series' permalink. */
export function SweepRoute() {
  const { id = '' } = useParams();
  return <SweepPermalink key={id} sweepId={id} />;
}
