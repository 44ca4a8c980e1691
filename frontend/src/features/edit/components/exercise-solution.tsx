import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ErrorMessage, Loading } from '@/components/loading';

import { solutionQuery, type Exercise } from '../api/exercises';

import { DiffLayoutPicker } from './diff-layout-picker';
import { DiffView, type DiffLayout } from './diff-view';

type Step = 'closed' | 'confirming' | 'open';

interface ExerciseSolutionProps {
  exercise: Pick<Exercise, 'slug' | 'starter' | 'file'>;
  /** Puts the solution in the editor in place of what is there. */
  onLoad: (source: string) => void;
}

/**
 * A solution, only for a learner who asks twice (Show a solution, then yes): it is not even
 * fetched before. Shown as its changes to the starter, read-only, with a button that loads it
 * into the editor.
 */
export function ExerciseSolution({ exercise, onLoad }: ExerciseSolutionProps) {
  const { t } = useTranslation('edit');
  const [step, setStep] = useState<Step>('closed');
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const [loaded, setLoaded] = useState(false);
  const solution = useQuery({ ...solutionQuery(exercise.slug), enabled: step === 'open' });

  return (
    <section className="exercise-solution" aria-labelledby="solution-title" data-testid="solution">
      <h2 id="solution-title">{t('solution.title')}</h2>
      {step === 'closed' ? (
        <>
          <p className="edit__muted">{t('solution.intro')}</p>
          <button type="button" className="button" onClick={() => { setStep('confirming'); }}>
            {t('solution.show')}
          </button>
        </>
      ) : null}
      {step === 'confirming' ? (
        <div className="edit__confirm" role="group" aria-label={t('solution.confirmLabel')}>
          <span>{t('solution.confirm')}</span>
          {/* The button that asked is gone: the choice it asked for takes the focus. */}
          <button type="button" className="button button--small" onClick={() => { setStep('open'); }} autoFocus>
            {t('solution.yes')}
          </button>
          <button type="button" className="button button--small" onClick={() => { setStep('closed'); }}>
            {t('solution.notYet')}
          </button>
        </div>
      ) : null}
      {step === 'open' ? (
        solution.isPending ? (
          <Loading label={t('solution.loading')} />
        ) : solution.isError ? (
          <ErrorMessage title={t('solution.loadError')} error={solution.error} />
        ) : (
          <>
            <DiffLayoutPicker layout={layout} onChange={setLayout} />
            <DiffView
              original={exercise.starter}
              changed={solution.data.source}
              layout={layout}
              originalLabel={t('exercise.answer.baseName')}
              changedLabel={t('solution.aSolution')}
              file={exercise.file}
            />
            <p className="exercise-solution__load">
              <button
                type="button"
                className="button"
                onClick={() => {
                  onLoad(solution.data.source);
                  setLoaded(true);
                }}
              >
                {t('solution.load')}
              </button>{' '}
              <span className="edit__muted">{t('solution.replaces')}</span>
            </p>
            <p role="status" className="edit__muted">
              {loaded ? t('solution.loaded') : ''}
            </p>
          </>
        )
      ) : null}
    </section>
  );
}
