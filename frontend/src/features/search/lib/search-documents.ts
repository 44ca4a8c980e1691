/**
 * What search finds: a lesson's opening, each of its sections (an `##` or `###` heading and
 * the prose under it), and each glossary term with its definition. Each document knows the
 * page and the heading id to open (the lesson page gives its headings `slugify(text)` ids).
 * Code, fenced blocks (experiments, sources, diagrams), raw HTML and speaker notes are not
 * searched: what a result promises is prose the reader will see.
 */
import type { Heading, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

import { slugify } from '@/lib/slugify';

export type SearchDocumentKind = 'lesson' | 'section' | 'term';

/** Where a document is: a lesson (its number and title) or the glossary. The search box puts
 *  it in the reader's words ("Lesson 5 · epoll", "Glossary"), in the interface's language. */
export type SearchPlace = { in: 'lesson'; order: number; title: string } | { in: 'glossary' };

export interface SearchDocument {
  id: string;
  kind: SearchDocumentKind;
  /** The lesson's title, the section's heading or the term. */
  title: string;
  place: SearchPlace;
  text: string;
  /** The route to open, with the heading's id as its hash. */
  href: string;
}

export interface LessonSource {
  slug: string;
  title: string;
  summary: string;
  order: number;
  markdown: string;
}

export interface GlossarySource {
  markdown: string;
}

interface Section {
  heading: string;
  depth: number;
  text: string[];
}

const SPEAKER_NOTES_OPEN = /<details\b[^>]*\bspeaker-notes\b/;
const DETAILS_CLOSE = '</details>';

/** The page's prose cut at its `##`/`###` headings; what precedes the first one has no heading. */
function sections(markdown: string): Section[] {
  const tree: Root = fromMarkdown(markdown);
  const found: Section[] = [{ heading: '', depth: 0, text: [] }];
  let inSpeakerNotes = false;
  const add = (node: RootContent) => {
    const current = found[found.length - 1];
    if (current) current.text.push(blockText(node));
  };
  for (const node of tree.children) {
    if (node.type === 'html') {
      // Instructors' notes open and close as raw HTML around Markdown of their own.
      if (SPEAKER_NOTES_OPEN.test(node.value) && !node.value.includes(DETAILS_CLOSE)) inSpeakerNotes = true;
      else if (inSpeakerNotes && node.value.includes(DETAILS_CLOSE)) inSpeakerNotes = false;
      continue;
    }
    if (inSpeakerNotes || node.type === 'code') continue;
    if (isSectionHeading(node)) {
      found.push({ heading: toString(node), depth: node.depth, text: [] });
      continue;
    }
    add(node);
  }
  return found;
}

/** A block's text, its paragraphs and list items apart ("…replies? Backpressure", not "replies?Backpressure"). */
function blockText(node: RootContent): string {
  if (node.type === 'code' || node.type === 'html') return '';
  if (node.type === 'paragraph' || node.type === 'heading' || !('children' in node)) {
    return toString(node, { includeHtml: false });
  }
  return node.children.map((child) => blockText(child as RootContent)).join(' ');
}

function isSectionHeading(node: RootContent): node is Heading {
  return node.type === 'heading' && (node.depth === 2 || node.depth === 3);
}

const joinText = (parts: string[]) => parts.join(' ').replace(/\s+/g, ' ').trim();

/** One lesson's documents: its opening (title, summary, first paragraphs), then each section. */
export function lessonDocuments(lesson: LessonSource): SearchDocument[] {
  const place: SearchPlace = { in: 'lesson', order: lesson.order, title: lesson.title };
  const path = `/lessons/${lesson.slug}`;
  const [opening, ...rest] = sections(lesson.markdown);
  const documents: SearchDocument[] = [
    {
      id: `lesson:${lesson.slug}`,
      kind: 'lesson',
      title: lesson.title,
      place,
      text: joinText([lesson.summary, ...(opening?.text ?? [])]),
      href: path,
    },
  ];
  for (const section of rest) {
    const anchor = slugify(section.heading);
    documents.push({
      id: `lesson:${lesson.slug}#${anchor}`,
      kind: 'section',
      title: section.heading,
      place,
      text: joinText(section.text),
      href: `${path}#${anchor}`,
    });
  }
  return documents;
}

/** The glossary's documents: one per `###` term, with its definition. */
export function glossaryDocuments(glossary: GlossarySource): SearchDocument[] {
  return sections(glossary.markdown)
    .filter((section) => section.depth === 3)
    .map((section) => {
      const anchor = slugify(section.heading);
      return {
        id: `glossary#${anchor}`,
        kind: 'term',
        title: section.heading,
        place: { in: 'glossary' },
        text: joinText(section.text),
        href: `/glossary#${anchor}`,
      };
    });
}
