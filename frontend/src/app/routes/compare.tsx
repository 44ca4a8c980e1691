// The page's own module, not the feature's index: Rolldown gives a route everything an index
// re-exports (rolldown/rolldown#8920), and this page would load the lesson widget's highlighter.
import { ComparePermalink } from '@/features/bench/components/compare-permalink';

/** /#/compare?results=run:…,sweep:…: a comparison's permalink. */
export function CompareRoute() {
  return <ComparePermalink />;
}
