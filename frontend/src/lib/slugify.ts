/**
 * GitHub-style ids for headings, so a section can be linked: the lesson pages give their
 * headings these ids, and search and the glossary links point at them.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s+/g, '-');
}
