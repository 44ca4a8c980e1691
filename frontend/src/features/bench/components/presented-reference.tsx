import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { useBaseline } from '../hooks/use-baseline';
import { describeBaseline, replayRun } from '../lib/baseline';

import { BaselineNote } from './baseline-note';
import { RunFigures } from './run-figures';

import './experiment-widget.css';

/**
 * An experiment presented before its run starts: its recorded reference, drawn as the widget
 * draws it, so the class has a chart to look at while the instructor explains; the live run
 * takes its place once it is presented.
 */
export function PresentedReference({ lesson, experiment }: { lesson: string; experiment: string }) {
  const { t } = useTranslation('bench');
  const baseline = useBaseline(lesson, experiment);
  const recorded = useMemo(() => (baseline?.kind === 'run' ? replayRun(baseline) : null), [baseline]);
  if (!baseline || !recorded) return null;
  return (
    <section className="experiment presented" aria-label={t('presented.reference')} data-testid="presented-reference">
      <BaselineNote text={describeBaseline(baseline, t)} runLabel={null} />
      <RunFigures state={recorded} plannedS={0} />
    </section>
  );
}
