/**
 * Glossary terms linked from a lesson's prose: a rehype plugin that turns the first mention of
 * each glossary term into a link to its entry (`../glossary.md#anchor`, which the lesson's
 * link component routes to /#/glossary#anchor). Code, headings, links, a <details>' summary and
 * the fenced blocks (experiments, sources, diagrams) are left alone, and a term the lesson
 * already links to the glossary by hand is not linked again.
 */
import type { Element, Root, RootContent } from 'hast';
import { findAndReplace } from 'hast-util-find-and-replace';

import { slugify } from '@/lib/slugify';

/** Elements whose text is never linked. */
const IGNORE = ['a', 'code', 'pre', 'kbd', 'samp', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'summary', 'script', 'style', 'svg', 'math', 'title'];

export const GLOSSARY_LINK_CLASS = 'glossary-link';

/** Where a term's entry is: its heading's id on the glossary page. */
export function glossaryAnchor(term: string): string {
  return slugify(term);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A term in sentence case ("Event loop") is also found starting lower-case; others exactly. */
function sentenceCase(text: string): boolean {
  const first = text.charAt(0);
  return first !== first.toLowerCase() && text.slice(1) === text.slice(1).toLowerCase();
}

/**
 * The phrases that stand for a term in prose: "CQ / CQE" is either. A term the glossary has to
 * qualify ("Stack (of a thread)") means something else in other sentences ("the TCP stack"),
 * so it has none: it is not linked automatically.
 */
export function termPhrases(term: string): string[] {
  if (/[(（].*[)）]/.test(term)) return [];
  return term
    .split(/\s+\/\s+/)
    .map((phrase) => phrase.trim())
    .filter(Boolean);
}

function phrasePattern(phrase: string): string {
  const body = sentenceCase(phrase)
    ? `[${phrase.charAt(0)}${phrase.charAt(0).toLowerCase()}]${escape(phrase.slice(1))}`
    : escape(phrase);
  // Words may be plural ("file descriptors"); identifiers (fork, io_uring) are not.
  const plural = /[a-z]$/.test(phrase) && sentenceCase(phrase) ? '(?:e?s)?' : '';
  return body + plural;
}

/**
 * A character that continues a word of a spaced script (a letter, digit, `_` or `-` that is not
 * Han): a phrase next to one is part of a longer word, not "select" inside "selected", not
 * "Reactor" inside "multi-reactor". Chinese puts no spaces between words, so a Han character
 * beside a phrase is no such thing ("就绪队列" inside "内核把就绪队列交给…").
 */
const WORD_CHAR = '(?!\\p{Script=Han})[\\p{L}\\p{N}_-]';

interface Matcher {
  pattern: RegExp;
  /** The term a matched phrase belongs to, by the phrase as written in the glossary. */
  termOf: (match: string) => string | undefined;
}

/** One expression for every term, with a lookup from what it matched back to the term. */
export function glossaryMatcher(terms: readonly string[]): Matcher | null {
  const phrases = terms.flatMap((term) => termPhrases(term).map((phrase) => ({ phrase, term })));
  if (phrases.length === 0) return null;
  // Longest first, so "io_uring_enter" wins over "io_uring" where both would match.
  phrases.sort((a, b) => b.phrase.length - a.phrase.length);
  const compiled = phrases.map(({ phrase, term }) => ({ term, test: new RegExp(`^${phrasePattern(phrase)}$`, 'u') }));
  const pattern = new RegExp(
    `(?<!${WORD_CHAR})(?:${phrases.map(({ phrase }) => phrasePattern(phrase)).join('|')})(?!${WORD_CHAR})`,
    'gu',
  );
  return { pattern, termOf: (match) => compiled.find(({ test }) => test.test(match))?.term };
}

/** An anchor as its heading's id: the Markdown renderer percent-encodes what is not ASCII. */
function safeDecode(anchor: string): string {
  try {
    return decodeURIComponent(anchor);
  } catch {
    return anchor;
  }
}

/** Glossary anchors the lesson already links to (`glossary.md#x`, `/glossary#x`, `#闭环-closed-loop`). */
function linkedAnchors(tree: Root): Set<string> {
  const anchors = new Set<string>();
  const walk = (node: Root | RootContent) => {
    if (node.type === 'element') {
      const href = node.properties.href;
      const anchor = typeof href === 'string' ? /glossary(?:\.md)?#([^\s#]+)$/.exec(href)?.[1] : undefined;
      if (node.tagName === 'a' && anchor) anchors.add(safeDecode(anchor));
    }
    if ('children' in node) node.children.forEach(walk);
  };
  walk(tree);
  return anchors;
}

function glossaryLink(text: string, anchor: string): Element {
  return {
    type: 'element',
    tagName: 'a',
    properties: { href: `../glossary.md#${anchor}`, className: [GLOSSARY_LINK_CLASS] },
    children: [{ type: 'text', value: text }],
  };
}

export interface GlossaryLinksOptions {
  terms: readonly string[];
}

/** The rehype plugin: run it after sanitising, as the links it adds are ours. */
export function rehypeGlossaryLinks({ terms }: GlossaryLinksOptions) {
  const matcher = glossaryMatcher(terms);
  return (tree: Root) => {
    if (!matcher) return;
    const linked = linkedAnchors(tree);
    findAndReplace(
      tree,
      [
        matcher.pattern,
        (match: string) => {
          const term = matcher.termOf(match);
          if (term === undefined) return false;
          const anchor = glossaryAnchor(term);
          if (linked.has(anchor)) return false;
          linked.add(anchor);
          return glossaryLink(match, anchor);
        },
      ],
      { ignore: IGNORE },
    );
  };
}
