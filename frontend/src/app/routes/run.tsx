import { useParams } from 'react-router';

import { RunPermalink } from '@/features/bench';

/** /#/runs/:id: a run's permalink. */
export function RunRoute() {
  const { id = '' } = useParams();
  return <RunPermalink key={id} runId={id} />;
}
