import { useMemo } from 'react';

import { CodeBlock } from '@/components/code-block';
import { ErrorBoundary } from '@/components/error-boundary';
import { useLessonExperiment } from '@/hooks/use-lesson';

import { useBaseline } from '../hooks/use-baseline';
import type { Presenter } from '../hooks/use-presenting';
import { parseExperimentBlock, type ExperimentOrigin } from '../lib/experiment-block';

import type { RunGate } from './experiment-controls';
import { ExperimentWidget } from './experiment-widget';
import { SeriesWidget } from './series-widget';

interface ExperimentBlockProps {
  code: string;
  lessonSlug?: string;
  /** Set when this browser may not run benchmarks (a class nobody here has joined): the
   *  widget shows this link instead of Run, and still shows the recorded result. */
  gate?: RunGate | null;
  /** Given to an instructor with a class: a Present button that shows the class this block. */
  presenter?: Presenter | null;
}

/**
 * Renders a lesson's ```experiment block: a Run widget, a series widget (for
 * `servers:`), or (for a broken block) a clear error with the block's text, never a crash.
 * Runs and series started here carry the lesson and the block's key, as the lesson lists them.
 */
export function ExperimentBlock({ code, lessonSlug, gate, presenter }: ExperimentBlockProps) {
  const parsed = useMemo(() => parseExperimentBlock(code), [code]);
  const baseline = useBaseline(lessonSlug, code);
  const lessonKey = useLessonExperiment(lessonSlug, code)?.key;
  const origin = useMemo<ExperimentOrigin | undefined>(
    () => (lessonSlug && lessonKey ? { lesson: lessonSlug, experiment: lessonKey } : undefined),
    [lessonSlug, lessonKey],
  );
  return (
    <ErrorBoundary name="This benchmark widget">
      {parsed.ok && parsed.kind === 'series' ? (
        <SeriesWidget
          experiment={parsed.experiment}
          sweep={parsed.sweep}
          origin={origin}
          baseline={baseline}
          gate={gate}
          presenter={presenter}
        />
      ) : parsed.ok ? (
        <ExperimentWidget
          experiment={parsed.experiment}
          request={parsed.request}
          experimentKey={parsed.key}
          origin={origin}
          baseline={baseline}
          gate={gate}
          presenter={presenter}
        />
      ) : (
        <div className="experiment experiment--invalid" role="alert" data-testid="experiment-error">
          <p className="experiment__kicker">Experiment</p>
          <p className="experiment__error">{parsed.error}</p>
          <CodeBlock code={code} language="yaml" />
        </div>
      )}
    </ErrorBoundary>
  );
}
