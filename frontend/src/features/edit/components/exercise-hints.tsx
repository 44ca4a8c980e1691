import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ProseMarkdown } from '@/components/prose-markdown';

/** The exercise's hints, one at a time and only when asked for: each says which it is
 *  ("Hint 1 of 3"), and each new one is read out as it comes. */
export function ExerciseHints({ hints }: { hints: string[] }) {
  const { t } = useTranslation('edit');
  const [shown, setShown] = useState(0);
  const total = hints.length;
  if (total === 0) return null;
  return (
    <section className="exercise-hints" aria-labelledby="hints-title" data-testid="hints">
      <h2 id="hints-title">{t('hints.title')}</h2>
      {shown === 0 ? <p className="edit__muted">{t('hints.intro', { count: total })}</p> : null}
      <ol className="exercise-hints__list" aria-live="polite">
        {hints.slice(0, shown).map((hint, i) => (
          <li key={i} data-testid="hint">
            <p className="exercise-hints__label">{t('hints.label', { n: i + 1, total })}</p>
            <ProseMarkdown markdown={hint} className="prose exercise-hints__text" />
          </li>
        ))}
      </ol>
      {shown < total ? (
        <button type="button" className="button button--small" onClick={() => { setShown((n) => n + 1); }}>
          {t('hints.show', { n: shown + 1, total })}
        </button>
      ) : (
        <p className="edit__muted">{t('hints.last')}</p>
      )}
    </section>
  );
}
