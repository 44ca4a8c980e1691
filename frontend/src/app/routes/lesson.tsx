import { lazy, Suspense, useMemo } from 'react';
import { useParams } from 'react-router';

import { Loading } from '@/components/loading';
import { WhenNearViewport } from '@/components/when-near-viewport';
import { LessonPage, type FencedBlockRenderers } from '@/features/lessons';
import { useRunGate } from '@/features/people';
import { SourceBlock } from '@/features/sources';

// The bench feature (YAML parser, Chart.js, run state) is a third of a lesson's JavaScript and
// every widget sits below the first screen: it loads when the reader scrolls to the first one.
const ExperimentBlock = lazy(async () => ({ default: (await import('@/features/bench')).ExperimentBlock }));

/** Roughly a widget's height with its reference result drawn, so the page hardly moves when it comes. */
const WIDGET_HEIGHT = '60rem';

// In a class, only someone who joined (or the instructor) may run: the people feature says
// whether this browser may, and the bench feature shows its link in place of Run.
function LazyExperimentBlock({ code, lessonSlug }: { code: string; lessonSlug: string }) {
  const gate = useRunGate();
  return (
    <WhenNearViewport label="Benchmark widget…" minHeight={WIDGET_HEIGHT}>
      <Suspense fallback={<Loading label="Loading the benchmark widget…" />}>
        <ExperimentBlock code={code} lessonSlug={lessonSlug} gate={gate} />
      </Suspense>
    </WhenNearViewport>
  );
}

// The lesson feature knows nothing about benchmarks or sources: the app composes them here,
// telling experiment blocks which lesson they are in (for its recorded reference results).
function blocksFor(slug: string): FencedBlockRenderers {
  return {
    experiment: ({ code }) => <LazyExperimentBlock code={code} lessonSlug={slug} />,
    source: SourceBlock,
  };
}

export function LessonRoute() {
  const { slug = '' } = useParams();
  const blocks = useMemo(() => blocksFor(slug), [slug]);
  // key: a fresh page (and fresh widgets) per lesson.
  return <LessonPage key={slug} slug={slug} blocks={blocks} />;
}
