import { useMemo } from 'react';

import { CodeBlock } from '@/components/code-block';
import { ErrorBoundary } from '@/components/error-boundary';

import { useBaseline } from '../hooks/use-baseline';
import { parseExperimentBlock } from '../lib/experiment-block';

import { ExperimentWidget } from './experiment-widget';
import { SeriesWidget } from './series-widget';

/**
 * Renders a lesson's ```experiment block: a Run widget, a series widget (for
 * `servers:`), or (for a broken block) a clear error with the block's text, never a crash.
 */
export function ExperimentBlock({ code, lessonSlug }: { code: string; lessonSlug?: string }) {
  const parsed = useMemo(() => parseExperimentBlock(code), [code]);
  const baseline = useBaseline(lessonSlug, code);
  return (
    <ErrorBoundary name="This benchmark widget">
      {parsed.ok && parsed.kind === 'series' ? (
        <SeriesWidget experiment={parsed.experiment} sweep={parsed.sweep} baseline={baseline} />
      ) : parsed.ok ? (
        <ExperimentWidget
          experiment={parsed.experiment}
          request={parsed.request}
          experimentKey={parsed.key}
          baseline={baseline}
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
