import { useMemo } from 'react';

import { CodeBlock } from '@/components/code-block';
import { ErrorBoundary } from '@/components/error-boundary';

import { useBaseline } from '../hooks/use-baseline';
import { parseExperimentBlock } from '../lib/experiment-block';

import type { RunGate } from './experiment-controls';
import { ExperimentWidget } from './experiment-widget';
import { SeriesWidget } from './series-widget';

interface ExperimentBlockProps {
  code: string;
  lessonSlug?: string;
  /** Set when this browser may not run benchmarks (a class nobody here has joined): the
   *  widget shows this link instead of Run, and still shows the recorded result. */
  gate?: RunGate | null;
}

/**
 * Renders a lesson's ```experiment block: a Run widget, a series widget (for
 * `servers:`), or (for a broken block) a clear error with the block's text, never a crash.
 */
export function ExperimentBlock({ code, lessonSlug, gate }: ExperimentBlockProps) {
  const parsed = useMemo(() => parseExperimentBlock(code), [code]);
  const baseline = useBaseline(lessonSlug, code);
  return (
    <ErrorBoundary name="This benchmark widget">
      {parsed.ok && parsed.kind === 'series' ? (
        <SeriesWidget experiment={parsed.experiment} sweep={parsed.sweep} baseline={baseline} gate={gate} />
      ) : parsed.ok ? (
        <ExperimentWidget
          experiment={parsed.experiment}
          request={parsed.request}
          experimentKey={parsed.key}
          baseline={baseline}
          gate={gate}
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
