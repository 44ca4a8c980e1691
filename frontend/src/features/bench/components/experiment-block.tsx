import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { CodeBlock } from '@/components/code-block';
import { ErrorBoundary } from '@/components/error-boundary';
import { Loading } from '@/components/loading';
import { useLessonBlock } from '@/hooks/use-lesson';

import { useBaseline } from '../hooks/use-baseline';
import type { Presenter } from '../hooks/use-presenting';
import type { ExperimentOrigin } from '../lib/experiment-block';
import { labUrl, setupFromRequest } from '../lib/lab-setup';

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

/** An experiment block's text is YAML: its highlighter's language id, never read by anyone. */
const BLOCK_LANGUAGE = 'yaml';

/** A block that does not run, said in words above its text. */
function BlockNote({ code, children, alert = false }: { code: string; children: ReactNode; alert?: boolean }) {
  const { t } = useTranslation('bench');
  return (
    <div
      className={`experiment${alert ? ' experiment--invalid' : ''}`}
      role={alert ? 'alert' : undefined}
      data-testid={alert ? 'experiment-error' : 'experiment-note'}
    >
      <p className="kicker">{t('widget.kicker')}</p>
      <p className={alert ? 'experiment__error' : undefined}>{children}</p>
      <CodeBlock code={code} language={BLOCK_LANGUAGE} />
    </div>
  );
}

/**
 * Renders a lesson's ```experiment block as the backend parsed it (GET /api/lessons/{slug}
 * lists each block with its request): a Run widget for a run, a series widget for a sweep, or
 * (for a broken block) the backend's error with the block's text, never a crash. Runs and series
 * started here carry the lesson and the block's key.
 */
export function ExperimentBlock({ code, lessonSlug, gate, presenter }: ExperimentBlockProps) {
  const { t } = useTranslation('bench');
  const block = useLessonBlock(lessonSlug, code);
  const listed = block.status === 'listed' ? block.experiment : null;
  const baseline = useBaseline(lessonSlug, listed?.key);
  const origin = useMemo<ExperimentOrigin | undefined>(
    () => (lessonSlug && listed ? { lesson: lessonSlug, experiment: listed.key } : undefined),
    [lessonSlug, listed],
  );

  switch (block.status) {
    case 'outside':
      return <BlockNote code={code}>{t('block.outside')}</BlockNote>;
    case 'loading':
      return <Loading label={t('block.loading')} />;
    case 'failed':
      return (
        <BlockNote code={code} alert>
          {t('block.lessonFailed', { error: block.error.message })}
        </BlockNote>
      );
    case 'unlisted':
      return (
        <BlockNote code={code} alert>
          {t('block.unlisted')}
        </BlockNote>
      );
    case 'listed':
      break;
  }
  const { experiment } = block;
  const request = experiment.sweep ?? experiment.run;
  const labHref = request ? labUrl(setupFromRequest(request)) : undefined;
  return (
    <ErrorBoundary name={t('boundary.widget')}>
      {experiment.sweep ? (
        <SeriesWidget
          title={experiment.title}
          sweep={experiment.sweep}
          origin={origin}
          baseline={baseline}
          gate={gate}
          presenter={presenter}
          labHref={labHref}
        />
      ) : experiment.run ? (
        <ExperimentWidget
          title={experiment.title}
          request={experiment.run}
          runKey={`${lessonSlug ?? ''}/${experiment.key}`}
          origin={origin}
          baseline={baseline}
          gate={gate}
          presenter={presenter}
          labHref={labHref}
        />
      ) : (
        <BlockNote code={code} alert>
          {/* The backend's words: "The experiment block is invalid: …" */}
          {experiment.error ?? t('block.neither')}
        </BlockNote>
      )}
    </ErrorBoundary>
  );
}
