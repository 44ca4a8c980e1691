import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Root } from 'hast';
import Markdown, { type Options } from 'react-markdown';
import rehypeRaw from 'rehype-raw';

import { rehypeNativeRaw } from './rehype-native-raw';
import { remarkGfmParse } from './remark-gfm-parse';

type Raw = NonNullable<Options['rehypePlugins']>[number];

/** Positions say where a node came from; rehype-raw keeps them, the browser's parser has none. */
function withoutPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPositions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).filter(([key]) => key !== 'position').map(([key, v]) => [key, withoutPositions(v)]),
  );
}

/** The tree a lesson's pipeline has right after its raw HTML is parsed by `raw`. */
function treeAfter(raw: Raw, markdown: string): unknown {
  let tree: Root | null = null;
  const capture = () => (parsed: Root) => {
    tree = structuredClone(parsed);
  };
  Markdown({ children: markdown, remarkPlugins: [remarkGfmParse], rehypePlugins: [raw, capture] });
  return withoutPositions(tree);
}

const CASES: Record<string, string> = {
  'an answer to reveal, Markdown inside':
    '1. Why?\n\n   <details><summary>Answer</summary>\n\n   Because *it* blocks:\n\n   - `read()`\n   - `write()`\n\n   </details>\n',
  'speaker notes with a class': '<details class="speaker-notes"><summary>Speaker notes</summary>\n\nSay **this**.\n\n</details>\n',
  'a class question': '<div class="class-question" data-question="3"></div>\n\nText after.\n',
  'inline HTML, entities and escapes':
    'A <kbd>Ctrl</kbd>+<kbd>C</kbd>, x<sup>2</sup>, a&nbsp;b &amp; c &#x27;d&#39; <br/> and `<b>&amp;</b>` and 1 < 2 > 0\n',
  'a comment and an unknown tag': '<!-- a note -->\n\n<defunct>gone</defunct> text <span title="a &quot;b&quot;">s</span>\n',
  'a GFM table with HTML in a cell': '| a | b |\n|:--|--:|\n| <i>x</i> | y<br>z |\n',
  'task list, footnote, strikethrough, autolink':
    '- [x] done\n- [ ] not yet\n\nSee[^1] ~~old~~ www.example.com.\n\n[^1]: The note.\n',
  'inline SVG with camelCase attributes':
    '<svg viewBox="0 0 10 10" xmlns:xlink="http://www.w3.org/1999/xlink"><linearGradient id="g"/><use xlink:href="#g"/><foreignObject><p>x</p></foreignObject></svg>\n',
  'an image, a link with a title': '![alt "q"](a.png "t") [l](https://example.com "title & more")\n',
  'a template': '<template><p>inside</p></template>\n',
  'a block opened in one node and closed in another': '<div>\n\n# Heading\n\n```c\nint x = 1 < 2;\n```\n\n</div>\n',
  'a paragraph a block element breaks': 'Text <div>block</div> after\n',
};

describe('rehypeNativeRaw', () => {
  it.each(Object.entries(CASES))('parses %s as rehype-raw does', (_name, markdown) => {
    expect(treeAfter(rehypeNativeRaw, markdown)).toEqual(treeAfter(rehypeRaw, markdown));
  }, 120_000);

  // Every lesson and the glossary, in both languages, were held to it once (8 s); one lesson
  // with answers, speaker notes and diagrams' code stands for them here.
  it('parses a whole lesson as rehype-raw does', () => {
    const lesson = join(__dirname, '..', '..', '..', 'content', 'lessons', '01-c10k-problem.md');
    const markdown = readFileSync(lesson, 'utf8');
    expect(markdown).toContain('<details');
    expect(treeAfter(rehypeNativeRaw, markdown)).toEqual(treeAfter(rehypeRaw, markdown));
  });

  it('says which node it cannot compile', () => {
    const tree = { type: 'root', children: [{ type: 'mdxjsEsm', value: '' }] } as unknown as Root;
    expect(() => rehypeNativeRaw()(tree)).toThrow('Cannot compile `mdxjsEsm` node');
  }, 120_000);
});
