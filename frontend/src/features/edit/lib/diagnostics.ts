/**
 * The compiler's messages as the editor shows them: each one placed in the edited file (gcc's
 * 1-based line and column, its range's end inclusive) as a document range for @codemirror/lint,
 * clamped to the text so a message about a line since deleted still lands somewhere; messages
 * about another file, or the linker's (no line), go in the list below the editor only.
 */
import type { Text } from '@codemirror/state';

import type { Diagnostic, EditT } from './check-state';

/** gcc counts columns as a terminal shows them: a tab runs to the next multiple of 8. */
const GCC_TAB_STOP = 8;

export type LintSeverity = 'error' | 'warning' | 'info';

/** A diagnostic placed in the document: what @codemirror/lint's setDiagnostics takes. */
export interface PlacedDiagnostic {
  from: number;
  to: number;
  severity: LintSeverity;
  message: string;
  /** The 1-based line it was placed on (after clamping). */
  line: number;
}

export function lintSeverity(severity: Diagnostic['severity']): LintSeverity {
  return severity === 'note' ? 'info' : severity;
}

/** "expected ';' before '}' token [-Wfoo]": the message with the warning option that raised it. */
export function diagnosticText(diagnostic: Diagnostic): string {
  return diagnostic.option ? `${diagnostic.message} [${diagnostic.option}]` : diagnostic.message;
}

/** Does the message point into the edited file (and so belongs on a line of the editor)? */
export function isInEditedFile(diagnostic: Diagnostic): boolean {
  return diagnostic.line != null && !diagnostic.file;
}

/**
 * The offset within `text` (one line) of gcc's 1-based display `column`: tabs expanded to the
 * next tab stop, a character beyond the end meaning the end.
 */
export function columnOffset(text: string, column: number): number {
  const target = Math.max(1, column) - 1;
  let shown = 0;
  let offset = 0;
  for (const char of text) {
    if (shown >= target) return offset;
    shown = char === '\t' ? (Math.floor(shown / GCC_TAB_STOP) + 1) * GCC_TAB_STOP : shown + 1;
    offset += char.length;
  }
  return offset;
}

function clampLine(doc: Text, line: number): number {
  return Math.min(Math.max(1, line), doc.lines);
}

/**
 * A diagnostic of the edited file as a range of `doc`: from its line and column to its end
 * (inclusive, as gcc gives it), or over the one character at its column when it has no end (at
 * a line's end, the one before). A line past the end of the document is its last line; a column
 * past a line's end, the end.
 * Null for a message with no line in this file.
 */
export function placeDiagnostic(diagnostic: Diagnostic, doc: Text): PlacedDiagnostic | null {
  if (!isInEditedFile(diagnostic) || diagnostic.line == null) return null;
  const lineNumber = clampLine(doc, diagnostic.line);
  const line = doc.line(lineNumber);
  let from = line.from + columnOffset(line.text, diagnostic.column ?? 1);
  let to = from;
  if (diagnostic.end_line != null && diagnostic.end_column != null) {
    const end = doc.line(clampLine(doc, diagnostic.end_line));
    // gcc's finish is the range's last column: the range ends after that character.
    to = Math.max(from, end.from + columnOffset(end.text, diagnostic.end_column + 1));
  }
  // A bare point (gcc puts "expected ';'" just after the token it follows) is hard to see:
  // it covers the character there, or at a line's end the one before.
  if (to === from) {
    if (from < line.to) to = from + 1;
    else if (from > line.from) from -= 1;
  }
  return {
    from,
    to,
    severity: lintSeverity(diagnostic.severity),
    message: diagnosticText(diagnostic),
    line: lineNumber,
  };
}

/** Every diagnostic of the edited file placed in `doc`, in the compiler's order. */
export function placeDiagnostics(diagnostics: Diagnostic[], doc: Text): PlacedDiagnostic[] {
  return diagnostics.map((d) => placeDiagnostic(d, doc)).filter((d): d is PlacedDiagnostic => d !== null);
}

/** Where a message is, as the list below the editor says it: "line 12:5", "protocol.c:40", or
 *  nothing for the linker's. */
export function diagnosticWhere(diagnostic: Diagnostic, t: EditT): string | null {
  if (diagnostic.file) return diagnostic.file;
  if (diagnostic.line == null) return null;
  const { line, column } = diagnostic;
  return column != null ? t('diagnostics.lineColumn', { line, column }) : t('diagnostics.line', { line });
}

/** A message's severity in a word: gcc's error, warning or note. */
export function severityWord(severity: Diagnostic['severity'], t: EditT): string {
  return t(`diagnostics.severity.${severity}`);
}

/** "2 errors, 1 warning": what the list holds. */
export function countDiagnostics(diagnostics: Diagnostic[], t: EditT): string {
  const n = (severity: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === severity).length;
  const counts = [
    n('error') ? t('diagnostics.count.error', { count: n('error') }) : null,
    n('warning') ? t('diagnostics.count.warning', { count: n('warning') }) : null,
    n('note') ? t('diagnostics.count.note', { count: n('note') }) : null,
  ];
  return counts.filter(Boolean).join(t('listSeparator'));
}
