import { useParams } from 'react-router';

// The page's own module, not the feature's index: Rolldown gives a route everything an index
// re-exports (rolldown/rolldown#8920), and this page would load the lesson widget's highlighter.
import { RunPermalink } from '@/features/bench/components/run-permalink';

/** /#/runs/:id: a run's permalink. */
export function RunRoute() {
  const { id = '' } = useParams();
  return <RunPermalink key={id} runId={id} />;
}
