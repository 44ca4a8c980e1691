import { useState } from 'react';

import { ProseMarkdown } from '@/components/prose-markdown';

/** The exercise's hints, one at a time and only when asked for: each says which it is
 *  ("Hint 1 of 3"), and each new one is read out as it comes. */
export function ExerciseHints({ hints }: { hints: string[] }) {
  const [shown, setShown] = useState(0);
  const total = hints.length;
  if (total === 0) return null;
  return (
    <section className="exercise-hints" aria-labelledby="hints-title" data-testid="hints">
      <h2 id="hints-title">Hints</h2>
      {shown === 0 ? (
        <p className="edit__muted">
          {total === 1 ? 'One hint' : `${total} hints`}, one at a time, for when you are stuck.
        </p>
      ) : null}
      <ol className="exercise-hints__list" aria-live="polite">
        {hints.slice(0, shown).map((hint, i) => (
          <li key={i} data-testid="hint">
            <p className="exercise-hints__label">
              Hint {i + 1} of {total}
            </p>
            <ProseMarkdown markdown={hint} className="prose exercise-hints__text" />
          </li>
        ))}
      </ol>
      {shown < total ? (
        <button type="button" className="button button--small" onClick={() => { setShown((n) => n + 1); }}>
          Show hint {shown + 1} of {total}
        </button>
      ) : (
        <p className="edit__muted">That was the last hint. A solution is further down, when you want it.</p>
      )}
    </section>
  );
}
