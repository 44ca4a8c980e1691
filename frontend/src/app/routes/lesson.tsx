import { useMemo } from 'react';
import { useParams } from 'react-router';

import { ExperimentBlock } from '@/features/bench';
import { LessonPage, type FencedBlockRenderers } from '@/features/lessons';
import { SourceBlock } from '@/features/sources';

// The lesson feature knows nothing about benchmarks or sources: the app composes them here,
// telling experiment blocks which lesson they are in (for its recorded reference results).
function blocksFor(slug: string): FencedBlockRenderers {
  return {
    experiment: ({ code }) => <ExperimentBlock code={code} lessonSlug={slug} />,
    source: SourceBlock,
  };
}

export function LessonRoute() {
  const { slug = '' } = useParams();
  const blocks = useMemo(() => blocksFor(slug), [slug]);
  // key: a fresh page (and fresh widgets) per lesson.
  return <LessonPage key={slug} slug={slug} blocks={blocks} />;
}
