import { Text } from '@codemirror/state';

import { i18next } from '@/lib/i18n';

import type { Diagnostic } from './check-state';
import { columnOffset, countDiagnostics, diagnosticWhere, placeDiagnostic, placeDiagnostics } from './diagnostics';

// Lines start at offsets 0, 13, 28 and 29.
const t = i18next.getFixedT('en', 'edit');

const doc = Text.of(['int main() {', '    return 0 }', '', '\tx = 1;']);

const error = (over: Partial<Diagnostic>): Diagnostic => ({ severity: 'error', message: 'boom', ...over });

describe('placeDiagnostic', () => {
  it('puts gcc’s line, column and inclusive end on the document', () => {
    // "0" is line 2, column 12; its range ends at column 14 (the "}" after the space).
    const placed = placeDiagnostic(error({ line: 2, column: 12, end_line: 2, end_column: 14, message: "expected ';'" }), doc);
    expect(placed).toEqual({ from: 13 + 11, to: 13 + 14, severity: 'error', message: "expected ';'", line: 2 });
    expect(doc.sliceString(placed!.from, placed!.to)).toBe('0 }');
  });

  it('marks the one character at the column when gcc gives no end', () => {
    const placed = placeDiagnostic(error({ line: 1, column: 5 }), doc)!;
    expect(doc.sliceString(placed.from, placed.to)).toBe('m');
  });

  it('clamps a line past the end to the last line, and a column past a line’s end to its end', () => {
    const past = placeDiagnostic(error({ line: 99, column: 1 }), doc)!;
    expect(past.line).toBe(4);
    expect(past.from).toBe(doc.line(4).from);
    const wide = placeDiagnostic(error({ line: 1, column: 80, end_line: 7, end_column: 90 }), doc)!;
    expect(wide).toMatchObject({ from: doc.line(1).to, to: doc.length, line: 1 });
    const empty = placeDiagnostic(error({ line: 3, column: 4 }), doc)!;
    expect([empty.from, empty.to]).toEqual([doc.line(3).from, doc.line(3).from]);
    const zero = placeDiagnostic(error({ line: 0, column: 0 }), doc)!;
    expect([zero.from, zero.line]).toEqual([0, 1]);
  });

  it('never ends a range before it starts', () => {
    const placed = placeDiagnostic(error({ line: 2, column: 10, end_line: 1, end_column: 1 }), doc)!;
    expect(placed.to).toBe(placed.from + 1);
  });

  it('covers the character before a point at a line’s end (gcc’s "expected \';\'")', () => {
    // "    return 0 }" is 14 long: column 15 is just after the "}".
    const placed = placeDiagnostic(error({ line: 2, column: 15, end_line: 2, end_column: 15 }), doc)!;
    expect(doc.sliceString(placed.from, placed.to)).toBe('}');
  });

  it('counts a tab as gcc does, to the next multiple of 8', () => {
    // "\tx = 1;": the x is display column 9.
    const placed = placeDiagnostic(error({ line: 4, column: 9, severity: 'warning', option: '-Wimplicit-int' }), doc)!;
    expect(doc.sliceString(placed.from, placed.to)).toBe('x');
    expect(placed).toMatchObject({ severity: 'warning', message: 'boom [-Wimplicit-int]' });
  });

  it('leaves out the linker’s messages and those about another file, and says notes are info', () => {
    const placed = placeDiagnostics(
      [
        error({ message: 'undefined reference to `serve`' }),
        error({ file: 'protocol.h:40', line: null, message: 'in a header' }),
        { severity: 'note', message: 'declared here', line: 1, column: 1 },
      ],
      doc,
    );
    expect(placed.map((p) => [p.severity, p.message])).toEqual([['info', 'declared here']]);
  });
});

describe('columnOffset', () => {
  it('maps display columns to offsets, past the end meaning the end', () => {
    expect(columnOffset('abc', 1)).toBe(0);
    expect(columnOffset('abc', 3)).toBe(2);
    expect(columnOffset('abc', 9)).toBe(3);
    expect(columnOffset('a\tb', 9)).toBe(2);
    expect(columnOffset('a\tb', 5)).toBe(2);
  });
});

describe('the list’s words', () => {
  it('says where each message is and counts them by severity', () => {
    expect(diagnosticWhere(error({ line: 12, column: 5 }), t)).toBe('line 12:5');
    expect(diagnosticWhere(error({ line: 12 }), t)).toBe('line 12');
    expect(diagnosticWhere(error({ file: 'protocol.c:40' }), t)).toBe('protocol.c:40');
    expect(diagnosticWhere(error({}), t)).toBeNull();
    expect(countDiagnostics([error({}), error({}), { severity: 'warning', message: 'w' }], t)).toBe('2 errors, 1 warning');
  });
});

describe('the list’s words in Chinese', () => {
  it('says where and how many in Chinese, gcc’s messages as they are', async () => {
    await i18next.loadLanguages('zh');
    const zh = i18next.getFixedT('zh', 'edit');
    expect(diagnosticWhere(error({ line: 12, column: 5 }), zh)).toBe('第 12 行第 5 列');
    expect(countDiagnostics([error({}), { severity: 'warning', message: 'w' }, { severity: 'warning', message: 'v' }], zh)).toBe('1 个错误，2 个警告');
    expect(countDiagnostics([error({}), { severity: 'note', message: 'n' }], t)).toBe('1 error, 1 note');
  });
});
