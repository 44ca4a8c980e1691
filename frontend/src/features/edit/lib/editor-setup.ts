/**
 * What every CodeMirror view of the edit pages shares: C, line numbers and the usual editing
 * (codemirror's basicSetup), and a look drawn from the site's own custom properties
 * (global.css), so the editor follows the light or dark theme as the code listings do, with
 * their highlight colours. Only `dark` (CodeMirror's base styles) is given per theme. What a
 * person reads of the editor itself (its name, its search panel's and folds' words) is apart
 * from the rest, in `editorWords`, so a page can swap it when the language changes.
 */
import { cpp } from '@codemirror/lang-cpp';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';

import type { EditT } from './check-state';

/** The site's code colours (global.css `--hl-*`, as highlight.js uses them in the lessons). */
const siteHighlight = HighlightStyle.define([
  { tag: tags.comment, color: 'var(--hl-comment)', fontStyle: 'italic' },
  {
    tag: [tags.keyword, tags.controlKeyword, tags.modifier, tags.operatorKeyword, tags.definitionKeyword, tags.typeName],
    color: 'var(--hl-keyword)',
  },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--hl-number)' },
  { tag: [tags.string, tags.character, tags.special(tags.string)], color: 'var(--hl-string)' },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.function(tags.variableName)], color: 'var(--hl-title)' },
  { tag: [tags.processingInstruction, tags.macroName, tags.meta], color: 'var(--hl-attr)' },
]);

/**
 * The changed words of a diff, underlined and not tinted. @codemirror/merge tints them in its
 * base theme, some with selectors as specific as these: the site's theme, mounted after it,
 * wins the tie.
 */
const UNTINTED = [
  '.cm-changedText',
  'ins.cm-insertedLine',
  '.cm-deletedText',
  'del.cm-deletedLine',
  '.cm-deletedChunk del',
  '.cm-deletedChunk .cm-deletedText',
  '&.cm-merge-a .cm-changedText',
  '&.cm-merge-b .cm-changedText',
  '&.cm-merge-b .cm-deletedText',
].join(', ');

const siteLook = EditorView.theme({
  '&': {
    color: 'var(--ink)',
    backgroundColor: 'var(--code-bg)',
    border: '1px solid var(--code-border)',
    borderRadius: '8px',
    fontSize: '0.875rem',
  },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--ink)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--ink)' },
  '.cm-gutters': {
    backgroundColor: 'var(--code-header-bg)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--code-border)',
    borderRadius: '8px 0 0 8px',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 7%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--ink)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
    { backgroundColor: 'color-mix(in srgb, var(--accent) 28%, transparent)' },
  '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': {
    backgroundColor: 'color-mix(in srgb, var(--ok) 22%, transparent)',
    color: 'inherit',
  },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--ink)', border: '1px solid var(--border)' },
  '.cm-panels': { backgroundColor: 'var(--surface-sunken)', color: 'var(--ink)' },
  '.cm-diagnostic': { fontFamily: 'var(--mono)', fontSize: '0.85rem' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger-ink)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warn-ink)' },
  // The diff: added and removed lines in the listings' own addition/deletion colours (the code's
  // colours are readable on them); the changed words within a line underlined, not tinted.
  '.cm-changedLine, .cm-insertedLine': { backgroundColor: 'var(--hl-addition-bg)' },
  '.cm-deletedChunk, .cm-deletedLine': { backgroundColor: 'var(--hl-deletion-bg)' },
  [UNTINTED]: {
    background: 'none',
    textDecorationLine: 'underline',
    textDecorationThickness: '2px',
  },
  '.cm-changedText, ins.cm-insertedLine': { textDecorationColor: 'var(--hl-addition)' },
  '.cm-deletedText, del.cm-deletedLine, .cm-deletedChunk del': { textDecorationColor: 'var(--hl-deletion)' },
  // Removed lines read in the listings' deletion ink: the code's colours are not all readable
  // on the deletion background (a comment's grey in the dark theme is not).
  '.cm-deletedChunk, .cm-deletedChunk *': { color: 'var(--hl-deletion)' },
  '.cm-collapsedLines': { backgroundColor: 'var(--neutral-bg)', color: 'var(--ink)' },
});

/** CodeMirror's own dark look (its base styles), set apart so the page's theme can switch it. */
export function baseTheme(dark: boolean): Extension {
  return EditorView.theme({}, { dark });
}

/**
 * A view of a C file: editable or read-only. A read-only view stays focusable, so it can be
 * read and scrolled with the keyboard. Its name comes with `editorWords`.
 */
export function cEditor({ readOnly = false }: { readOnly?: boolean } = {}): Extension {
  return [
    basicSetup,
    cpp(),
    syntaxHighlighting(siteHighlight),
    siteLook,
    // tabindex: the text area is focusable as it is (contenteditable), but saying so lets
    // checkers (axe's scrollable-region-focusable) see the scrolling box can be reached.
    EditorView.contentAttributes.of({ tabindex: '0', ...(readOnly ? { 'aria-readonly': 'true' } : {}) }),
    readOnly ? EditorState.readOnly.of(true) : [],
  ];
}

/** CodeMirror's own words (its search panel, folds, lint panel, diff) in the interface's
 *  language: its `phrases`, keyed by the English it is written with. */
function phrases(t: EditT): Record<string, string> {
  return {
    Find: t('codemirror.find'),
    Replace: t('codemirror.replace'),
    next: t('codemirror.next'),
    previous: t('codemirror.previous'),
    all: t('codemirror.all'),
    'match case': t('codemirror.matchCase'),
    regexp: t('codemirror.regexp'),
    'by word': t('codemirror.byWord'),
    replace: t('codemirror.replaceOne'),
    'replace all': t('codemirror.replaceAll'),
    close: t('codemirror.close'),
    'current match': t('codemirror.currentMatch'),
    'on line': t('codemirror.onLine'),
    'replaced $ matches': t('codemirror.replacedMatches'),
    'replaced match on line $': t('codemirror.replacedMatchOnLine'),
    'Go to line': t('codemirror.goToLine'),
    go: t('codemirror.go'),
    'Fold line': t('codemirror.foldLine'),
    'Unfold line': t('codemirror.unfoldLine'),
    'Folded lines': t('codemirror.foldedLines'),
    'Unfolded lines': t('codemirror.unfoldedLines'),
    to: t('codemirror.to'),
    'folded code': t('codemirror.foldedCode'),
    unfold: t('codemirror.unfold'),
    'Selection deleted': t('codemirror.selectionDeleted'),
    'Control character': t('codemirror.controlCharacter'),
    Completions: t('codemirror.completions'),
    Diagnostics: t('codemirror.diagnostics'),
    'No diagnostics': t('codemirror.noDiagnostics'),
    '$ unchanged lines': t('codemirror.unchangedLines'),
    Accept: t('codemirror.accept'),
    Reject: t('codemirror.reject'),
    'Revert this chunk': t('codemirror.revertChunk'),
  };
}

/**
 * What a person reads of a view besides its text: its name for assistive technology (`label`;
 * the editor's text area is otherwise anonymous), what describes it (`describedBy`, an
 * element's id), and CodeMirror's own words, all in the interface's language.
 */
export function editorWords({ label, describedBy, t }: { label: string; describedBy?: string; t: EditT }): Extension {
  return [
    EditorView.contentAttributes.of({ 'aria-label': label, ...(describedBy ? { 'aria-describedby': describedBy } : {}) }),
    EditorState.phrases.of(phrases(t)),
  ];
}
