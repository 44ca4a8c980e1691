/**
 * The search index: MiniSearch over the documents of search-documents.ts. A heading or a term
 * weighs more than a mention in the text; every word of the query must match (AND), the last
 * one as a prefix of a word, so results narrow as one types; longer words forgive a typo.
 * Chinese has no spaces between words: a run of Han characters is indexed and searched as its
 * overlapping pairs, so "就绪队列" finds the text that has it, wherever its words begin.
 * This module and its dependencies load only when a reader first uses search.
 */
import MiniSearch, { type SearchResult } from 'minisearch';

import {
  glossaryDocuments,
  lessonDocuments,
  type GlossarySource,
  type LessonSource,
  type SearchDocument,
  type SearchDocumentKind,
  type SearchPlace,
} from './search-documents';

export interface SearchHit {
  id: string;
  kind: SearchDocumentKind;
  title: string;
  place: SearchPlace;
  href: string;
  /** A few words of the text around the first word found, or its start. */
  snippet: string;
}

export interface SearchEngine {
  /** The best hits for a query, best first; none for a blank one. */
  search: (query: string, limit?: number) => SearchHit[];
  /** How many documents are indexed. */
  size: number;
}

const SNIPPET_LENGTH = 110;
const DEFAULT_LIMIT = 8;

const HAN_RUNS = /\p{Script=Han}+|[^\p{Script=Han}]+/gu;
const HAN = /^\p{Script=Han}/u;
const splitWords = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** A run of Han characters as its overlapping pairs ("就绪队列": 就绪, 绪队, 队列); one alone as itself. */
function hanPairs(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length < 2) return chars;
  return chars.slice(1).map((char, i) => `${chars[i] ?? ''}${char}`);
}

/** The terms of a text or a query: MiniSearch's words, each run of Han characters in pairs. */
export function tokenize(text: string): string[] {
  return splitWords(text).flatMap((word) =>
    (word.match(HAN_RUNS) ?? []).flatMap((part) => (HAN.test(part) ? hanPairs(part) : [part])),
  );
}

/** How far back from the first word found a snippet may start looking for a space. */
const LEAD = 30;

/** A window of the text around the earliest of the matched words. */
export function snippet(text: string, words: readonly string[], length = SNIPPET_LENGTH): string {
  if (text.length <= length) return text;
  const lower = text.toLowerCase();
  const at = Math.min(...words.map((w) => lower.indexOf(w.toLowerCase())).filter((i) => i >= 0), Infinity);
  const from = Number.isFinite(at) ? Math.max(0, at - LEAD) : 0;
  const space = text.lastIndexOf(' ', from);
  // At the start of a word where words are spaced; where they are not (Chinese), anywhere.
  const start = from === 0 ? 0 : space >= 0 && from - space <= LEAD ? space + 1 : from;
  const end = Math.min(text.length, start + length);
  const cut = text.slice(start, end);
  const wordEnd = end < text.length ? cut.lastIndexOf(' ') : -1;
  return `${start > 0 ? '…' : ''}${wordEnd > length / 2 ? cut.slice(0, wordEnd) : cut}${end < text.length ? '…' : ''}`;
}

function hit(result: SearchResult): SearchHit {
  // A result carries the stored fields (all of a document's but none of its own).
  const doc = result as unknown as Omit<SearchResult, 'id'> & SearchDocument;
  return {
    id: doc.id,
    kind: doc.kind,
    title: doc.title,
    place: doc.place,
    href: doc.href,
    snippet: snippet(doc.text, result.terms),
  };
}

export function createSearchEngine(documents: readonly SearchDocument[]): SearchEngine {
  const index = new MiniSearch<SearchDocument>({
    fields: ['title', 'text'],
    storeFields: ['kind', 'title', 'place', 'text', 'href'],
    tokenize,
    searchOptions: {
      boost: { title: 4 },
      combineWith: 'AND',
      prefix: (_term, i, terms) => i === terms.length - 1,
      fuzzy: (term) => (term.length > 4 ? 0.2 : false),
    },
  });
  index.addAll(documents);
  return {
    size: index.documentCount,
    search(query, limit = DEFAULT_LIMIT) {
      if (!query.trim()) return [];
      return index.search(query).slice(0, limit).map(hit);
    },
  };
}

/** The index of the whole course: every lesson, then the glossary. */
export function createCourseSearch(lessons: readonly LessonSource[], glossary: GlossarySource | null): SearchEngine {
  return createSearchEngine([...lessons.flatMap(lessonDocuments), ...(glossary ? glossaryDocuments(glossary) : [])]);
}
