/**
 * CodeMirror in jsdom: what the tests of an editor page need to drive it.
 */
import { EditorView } from '@codemirror/view';
import { screen } from '@testing-library/react';
import { afterAll, beforeAll } from 'vitest';

/** jsdom lays nothing out: CodeMirror measures text ranges, which jsdom's Range cannot. Stubs
 *  the measures for the tests of the file that calls this, and puts them back after them. */
export function stubRangeLayout(): void {
  const { getClientRects, getBoundingClientRect } = Range.prototype;
  beforeAll(() => {
    Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] });
    Range.prototype.getBoundingClientRect = () => new DOMRect();
  });
  afterAll(() => {
    Object.assign(Range.prototype, { getClientRects, getBoundingClientRect });
  });
}

/** The editor whose textbox is named `name`, once it is on screen. */
export async function findEditor(name: string): Promise<EditorView> {
  const content = await screen.findByRole('textbox', { name });
  const view = EditorView.findFromDOM(content);
  if (!view) throw new Error('no editor');
  return view;
}
