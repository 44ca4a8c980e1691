/**
 * One entry of the glossary's Markdown, for a preview beside the lesson that links it: the
 * `### term` heading whose anchor is asked for, and its text up to the next heading.
 */
import { createContext } from 'react';

import { glossaryAnchor } from './glossary-links';

/** The glossary's Markdown, for the terms a lesson links to preview their entries; null while
 *  it has not come (the links still lead to the glossary). */
export const GlossaryMarkdownContext = createContext<string | null>(null);

export interface GlossaryEntry {
  term: string;
  /** The entry's Markdown, without its heading. */
  body: string;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

export function glossaryEntry(markdown: string, anchor: string): GlossaryEntry | null {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => {
    const heading = HEADING.exec(line);
    return heading?.[1] === '###' && glossaryAnchor(heading[2] ?? '') === anchor;
  });
  if (start < 0) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => HEADING.test(line));
  const body = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
  return { term: HEADING.exec(lines[start] ?? '')?.[2] ?? anchor, body };
}
