import { useParams } from 'react-router';

// The page's own module, not the feature's index: Rolldown gives a route everything an index
// re-exports (rolldown/rolldown#8920), and this page would load the lesson widget's highlighter.
import { SweepPermalink } from '@/features/bench/components/sweep-permalink';

/** /#/sweeps/:id: a series' permalink. */
export function SweepRoute() {
  const { id = '' } = useParams();
  return <SweepPermalink key={id} sweepId={id} />;
}
