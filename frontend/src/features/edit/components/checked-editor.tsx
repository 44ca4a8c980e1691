import { useId, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { CheckedEditor } from '../hooks/use-checked-editor';
import { checkStateLabel, diagnosticsOf } from '../lib/check-state';
import { refusalText } from '../lib/refusal';

import { DiffView } from './diff-view';
import { EditorToolbar } from './editor-toolbar';
import { SourceEditor } from './source-editor';

/** The words around an editor, translated: each page says them its own way. */
export interface EditorWords {
  /** What the text started as: "the original", "the starter". */
  baseName: string;
  reset: string;
  check: string;
  cancel: string;
  /** The editor's accessible name. */
  editor: string;
  /** The edited text's name in the changes: "your edit", "your answer". */
  changed: string;
  /** The started text's name in the changes, when not "the original". */
  original?: string;
}

interface CheckedEditorPaneProps {
  editing: CheckedEditor;
  words: EditorWords;
  file: string;
  /** The 1-based line the editor opens at (an exercise's function to change); the top if unset. */
  opensAt?: number | undefined;
}

/** The toolbar, a refused check's reason, the editor and, on request, the changes. */
export function CheckedEditorPane({ editing, words, file, opensAt }: CheckedEditorPaneProps) {
  const { t } = useTranslation('edit');
  const { editor, statusId, original, start, text, showing, layout, busy, run, check, onChange } = editing;
  const { state, cancel } = run;
  return (
    <>
      <EditorToolbar
        baseName={words.baseName}
        edited={text !== original}
        resetLabel={words.reset}
        confirmingReset={editing.confirmingReset}
        onConfirmingReset={editing.setConfirmingReset}
        onReset={editing.reset}
        showing={showing}
        onShowing={editing.setShowing}
        layout={layout}
        onLayout={editing.setLayout}
        draftStatus={editing.draftStatus}
      >
        <button type="button" className="button button--primary" onClick={() => void check()} disabled={busy} aria-describedby={statusId}>
          {words.check}
        </button>
        {busy && state.runId ? (
          <button type="button" className="button" onClick={() => void cancel()}>
            {words.cancel}
          </button>
        ) : null}
      </EditorToolbar>
      {state.refusal ? (
        <p className="edit__problem" role="alert" data-testid="build-refused">
          {refusalText(state.refusal, t)}
        </p>
      ) : null}
      <div hidden={showing !== 'editor'}>
        <SourceEditor
          ref={editor}
          initialText={start.text}
          initialLine={opensAt}
          label={words.editor}
          describedBy={statusId}
          diagnostics={diagnosticsOf(state)}
          onChange={onChange}
        />
      </div>
      {showing === 'changes' ? (
        <DiffView original={original} changed={text} layout={layout} originalLabel={words.original} changedLabel={words.changed} file={file} />
      ) : null}
    </>
  );
}

interface CheckStatusProps {
  editing: CheckedEditor;
  title: string;
  /** Said before anything was sent, instead of the check's idle words. */
  idleLabel?: string;
  keptAsKey: 'editPage.keptAs' | 'exercise.answer.keptAs';
  changedSince: string;
  /** What follows the status: the build's outcome, the measurement… */
  children: ReactNode;
}

/** The check's live status line, the saved variant it made (and whether the text has changed
 *  since), then the page's own outcome. */
export function CheckStatus({ editing, title, idleLabel, keptAsKey, changedSince, children }: CheckStatusProps) {
  const { t } = useTranslation('edit');
  const titleId = useId();
  const { state } = editing.run;
  const idle = state.phase === 'idle' && !state.sending;
  return (
    <section className="edit__build" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p
        id={editing.statusId}
        className="check-state"
        role="status"
        aria-live="polite"
        data-testid="check-state"
        data-phase={state.phase}
        data-run={state.runId ?? undefined}
      >
        {idle && idleLabel !== undefined ? idleLabel : checkStateLabel(state, t)}
      </p>
      {state.variantId ? (
        <p className="edit__muted" data-testid="variant-link">
          <Trans t={t} i18nKey={keptAsKey} components={{ a: <Link to={`/variants/${encodeURIComponent(state.variantId)}`} /> }} />
          {editing.changedSinceCheck ? ` ${changedSince}` : ''}
        </p>
      ) : null}
      {children}
    </section>
  );
}
