/**
 * The start of a long note, for a table cell: its first sentence (English or Chinese) when that
 * fits in `limit` characters, or else its first `limit` characters cut at a word, ending in "…".
 * Null when the whole note (its line breaks as spaces) fits.
 */
export function shortNote(text: string, limit: number): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= limit) return null;
  // A sentence ends at "." or ";" before a space, or at a Chinese "。" or "；" (no space follows one).
  const sentence = /^(.{12,}?(?:[.;](?=\s|$)|[。；]))/.exec(flat)?.[1];
  if (sentence && sentence.length <= limit) return `${sentence} …`;
  const cut = flat.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return `${(space > limit / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}
