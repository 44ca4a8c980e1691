import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';

import { VARIANTS_KEY } from '../api/variants';
import type { DiffLayout } from '../components/diff-view';
import type { Showing } from '../components/editor-toolbar';
import type { SourceEditorHandle } from '../components/source-editor';
import { isBuilding } from '../lib/check-state';
import { clearBuildAt, readBuildAt, saveBuildAt } from '../lib/drafts';

import { useCheckRun, type UseCheckRun } from './use-check-run';
import { useDraftText, type DraftSlot, type DraftStatus } from './use-draft-text';

export interface CheckedEditorOptions {
  /** What Reset brings back and the changes are shown against: the original, the starter. */
  original: string;
  /** useDraftText's base: the text that needs no draft (null: always keep one). */
  draftBase: string | null;
  /** The text the editor opens with (and whether it is a kept draft); read once. */
  start: { text: string; fromDraft: boolean };
  /** Where the text is kept as it is typed; keeps its identity from one render to the next. */
  draft: DraftSlot;
  /** Where the last build is kept (drafts' lastBuildKey, lastAnswerKey): after a reload it is
   *  followed again, and its events bring its outcome back. */
  lastBuildKey: string;
  /** What a check sends: the file of `server`, as an answer to `exercise` if given. */
  server: string;
  exercise?: string;
  /** Called as the learner types (stable, like `draft`). */
  onType?: () => void;
}

export interface CheckedEditor {
  editor: RefObject<SourceEditorHandle | null>;
  /** The id of the live status line the editor and the check button are described by. */
  statusId: string;
  original: string;
  start: { text: string };
  text: string;
  draftStatus: DraftStatus;
  showing: Showing;
  setShowing: (showing: Showing) => void;
  layout: DiffLayout;
  setLayout: (layout: DiffLayout) => void;
  confirmingReset: boolean;
  setConfirmingReset: (confirming: boolean) => void;
  run: UseCheckRun;
  busy: boolean;
  /** The text has changed since it was last sent. */
  changedSinceCheck: boolean;
  onChange: (text: string) => void;
  /** Keeps the text, sends it and follows its build and check. */
  check: () => Promise<void>;
  /** Back to the original, its draft forgotten. */
  reset: () => void;
  /** Puts `text` in the editor (and shows the editor). */
  replaceText: (text: string) => void;
  /** Shows the editor with the cursor at a line (a diagnostic's click). */
  goTo: (line: number, column: number | null) => void;
}

/**
 * A C file being edited and checked, as the free editor and an exercise's answer both have it:
 * its text kept as a draft, the editor or its changes on show, Reset (confirmed), and the
 * check run that the text is sent to, followed again after a reload.
 */
export function useCheckedEditor({
  original,
  draftBase,
  start,
  draft,
  lastBuildKey,
  server,
  exercise,
  onType,
}: CheckedEditorOptions): CheckedEditor {
  const queryClient = useQueryClient();
  const editor = useRef<SourceEditorHandle>(null);
  const statusId = useId();
  const { text, status: draftStatus, onChange: keepTyping, keepNow } = useDraftText(draft, draftBase, start);
  const [showing, setShowing] = useState<Showing>('editor');
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [checkedText, setCheckedText] = useState<string | null>(null);
  const run = useCheckRun();
  const { state, build, attach } = run;
  const busy = isBuilding(state);

  const onChange = useCallback(
    (next: string) => {
      keepTyping(next);
      onType?.();
      setConfirmingReset(false);
    },
    [keepTyping, onType],
  );

  useEffect(() => {
    const last = readBuildAt(lastBuildKey);
    if (!last) return;
    attach(last.variantId, last.runId).catch(() => {
      clearBuildAt(lastBuildKey);
    });
  }, [attach, lastBuildKey]);

  const check = async () => {
    keepNow();
    const sent = text;
    const created = await build(server, sent, exercise);
    if (!created) return;
    setCheckedText(sent);
    saveBuildAt(lastBuildKey, { variantId: created.id, runId: created.check.id });
    void queryClient.invalidateQueries({ queryKey: VARIANTS_KEY });
  };

  const replaceText = (next: string) => {
    editor.current?.setText(next);
    setConfirmingReset(false);
    setShowing('editor');
  };

  const reset = () => {
    replaceText(original);
    draft.clear();
  };

  const goTo = (line: number, column: number | null) => {
    if (showing === 'editor') {
      editor.current?.goTo(line, column);
      return;
    }
    setShowing('editor');
    // From the changes: the editor is shown again before the cursor moves into it.
    setTimeout(() => editor.current?.goTo(line, column), 0);
  };

  return {
    editor,
    statusId,
    original,
    start,
    text,
    draftStatus,
    showing,
    setShowing,
    layout,
    setLayout,
    confirmingReset,
    setConfirmingReset,
    run,
    busy,
    changedSinceCheck: checkedText !== null && checkedText !== text && !busy,
    onChange,
    check,
    reset,
    replaceText,
    goTo,
  };
}
