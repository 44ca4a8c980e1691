import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

import { useTheme } from '@/hooks/use-theme';

import type { Diagnostic } from '../lib/check-state';
import { columnOffset, placeDiagnostics } from '../lib/diagnostics';
import { baseTheme, cEditor, editorWords } from '../lib/editor-setup';

/** What the page may do to the editor besides typing: Reset, and a diagnostic's click. */
export interface SourceEditorHandle {
  /** Replaces the whole text (Reset, a draft restored); its diagnostics go with it. */
  setText: (text: string) => void;
  /** Puts the cursor at a 1-based line (and column), scrolls there and focuses the editor. */
  goTo: (line: number, column?: number | null) => void;
}

interface SourceEditorProps {
  /** The text it opens with; later changes come from typing or the handle. */
  initialText: string;
  /** The 1-based line it opens at, cursor there and that line at the top of its view; the
   *  page itself is not scrolled (nor the editor focused): the reader is still reading. */
  initialLine?: number | undefined;
  label: string;
  describedBy?: string;
  /** The compiler's messages to draw on their lines: set again whenever this array changes. */
  diagnostics: Diagnostic[];
  onChange: (text: string) => void;
  ref?: Ref<SourceEditorHandle>;
}

/** Puts the cursor at the start of `line` and scrolls the editor's own view so the line (and a
 *  few above it, for context) are at the top. EditorView.scrollIntoView would scroll the page
 *  as well, past whatever the reader is reading above the editor. */
function openAt(editor: EditorView, line: number) {
  const doc = editor.state.doc;
  const target = doc.line(Math.min(line, doc.lines));
  editor.dispatch({ selection: EditorSelection.cursor(target.from) });
  // Lines below the first screen have estimated heights until drawn: scroll by the estimate,
  // then, once the line is drawn, by how far it actually stands from where it should.
  const settle = (passes: number) => {
    editor.requestMeasure({
      read: (view) => {
        const drawn = view.coordsAtPos(target.from);
        if (!drawn) return { by: view.lineBlockAt(target.from).top - view.scrollDOM.scrollTop };
        return { by: drawn.top - view.scrollDOM.getBoundingClientRect().top };
      },
      write: ({ by }, view) => {
        const off = by - CONTEXT_LINES * view.defaultLineHeight;
        if (Math.abs(off) <= 1) return;
        view.scrollDOM.scrollTop += off;
        if (passes > 1) settle(passes - 1);
      },
    });
  };
  settle(4);
}

/** Lines shown above the one an editor opens at. */
const CONTEXT_LINES = 3;

/** The CodeMirror 6 editor of a C file, with the compiler's messages drawn on their lines. */
export function SourceEditor({ initialText, initialLine, label, describedBy, diagnostics, onChange, ref }: SourceEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const themeSlot = useRef(new Compartment());
  const wordsSlot = useRef(new Compartment());
  const { theme } = useTheme();
  const { t } = useTranslation('edit');

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // One view for the component's life: the text it opens with is read once; its theme and
  // words (its name, CodeMirror's phrases) are swapped below when they change.
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      doc: initialText,
      extensions: [
        cEditor(),
        wordsSlot.current.of(editorWords({ label, describedBy, t })),
        lintGutter(),
        themeSlot.current.of(baseTheme(document.documentElement.dataset.theme === 'dark')),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChangeRef.current(update.state.doc.toString());
        }),
      ],
    });
    view.current = editor;
    if (initialLine !== undefined && initialLine > 1) openAt(editor, initialLine);
    return () => {
      editor.destroy();
      view.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: themeSlot.current.reconfigure(baseTheme(theme === 'dark')) });
  }, [theme]);

  useEffect(() => {
    view.current?.dispatch({ effects: wordsSlot.current.reconfigure(editorWords({ label, describedBy, t })) });
  }, [label, describedBy, t]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, placeDiagnostics(diagnostics, editor.state.doc)));
  }, [diagnostics]);

  useImperativeHandle(
    ref,
    () => ({
      setText: (text) => {
        const editor = view.current;
        if (!editor) return;
        editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
        editor.dispatch(setDiagnostics(editor.state, []));
      },
      goTo: (line, column) => {
        const editor = view.current;
        if (!editor) return;
        const doc = editor.state.doc;
        const target = doc.line(Math.min(Math.max(1, line), doc.lines));
        const at = target.from + columnOffset(target.text, column ?? 1);
        editor.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: 'center' }) });
        editor.focus();
      },
    }),
    [],
  );

  return <div ref={host} className="source-editor" data-testid="source-editor" />;
}
