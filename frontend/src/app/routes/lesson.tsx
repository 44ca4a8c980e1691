import { useParams } from 'react-router';

import { ExperimentBlock } from '@/features/bench';
import { LessonPage, type FencedBlockRenderers } from '@/features/lessons';
import { SourceBlock } from '@/features/sources';

// The lesson feature knows nothing about benchmarks or sources: the app composes them here.
const blocks: FencedBlockRenderers = {
  experiment: ExperimentBlock,
  source: SourceBlock,
};

export function LessonRoute() {
  const { slug = '' } = useParams();
  // key: a fresh page (and fresh widgets) per lesson.
  return <LessonPage key={slug} slug={slug} blocks={blocks} />;
}
