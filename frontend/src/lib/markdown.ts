/** Small helpers for rendering the course's Markdown: lessons, the glossary, exercises. */
import type { Element, ElementContent } from 'hast';

/** `02-threads.md`, `./02-threads.md#x` → `/lessons/02-threads#x`; anything else unchanged (null). */
export function lessonHref(href: string | undefined): string | null {
  if (!href) return null;
  // A lesson links `04-select-and-poll.md`; the glossary links `lessons/04-select-and-poll.md`.
  // A section's id is its heading's slug, in the lesson's language: `#edge-triggered`, or
  // `#闭环-closed-loop`, which the Markdown renderer hands over percent-encoded.
  const lesson = /^(?:\.\/)?(?:lessons\/)?(\d{2}-[a-z0-9-]+)\.md(#[^\s#]*)?$/.exec(href);
  if (lesson) return `/lessons/${lesson[1] ?? ''}${lesson[2] ?? ''}`;
  const glossary = /^(?:\.\.\/)?glossary\.md(#[^\s#]*)?$/.exec(href);
  if (glossary) return `/glossary${glossary[1] ?? ''}`;
  return null;
}

export function isExternal(href: string | undefined): boolean {
  return !!href && /^https?:\/\//.test(href);
}

/** Text of a hast node (e.g. a fenced block's code element). */
export function hastText(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(hastText).join('');
  return '';
}

/** The language of a fenced block's <code> element (from `class="language-x"`). */
export function codeLanguage(code: Element): string | undefined {
  const className: unknown = code.properties.className;
  const classes: string[] = Array.isArray(className)
    ? className.map(String)
    : typeof className === 'string'
      ? className.split(' ')
      : [];
  const lang = classes.find((c) => c.startsWith('language-'));
  return lang?.slice('language-'.length);
}

/** GitHub-style heading ids so instructors can link to a section (shared with search). */
export { slugify } from './slugify';
