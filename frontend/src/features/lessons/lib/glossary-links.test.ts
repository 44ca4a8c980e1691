import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown, { type Options } from 'react-markdown';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import { describe, expect, it } from 'vitest';

import { glossaryAnchor, glossaryMatcher, rehypeGlossaryLinks, termPhrases } from './glossary-links';
import { lessonSanitizeSchema } from './sanitize-schema';

const TERMS = ['Event loop', 'epoll instance', 'Reactor', 'Multi-reactor', 'CQ / CQE', 'Stack (of a thread)', 'io_uring', 'io_uring_enter', 'select', 'File descriptor'];

/** A lesson's Markdown through the lesson page's pipeline (without its components), as HTML. */
function render(markdown: string, terms: readonly string[] = TERMS): string {
  const rehypePlugins: Options['rehypePlugins'] = [
    rehypeRaw,
    [rehypeSanitize, lessonSanitizeSchema],
    [rehypeGlossaryLinks, { terms }],
  ];
  return renderToStaticMarkup(createElement(Markdown, { rehypePlugins }, markdown));
}

const link = (text: string, anchor: string) => `<a href="../glossary.md#${anchor}" class="glossary-link">${text}</a>`;

describe('termPhrases', () => {
  it('reads "A / B" as either, and a qualified term as too ambiguous to link', () => {
    expect(termPhrases('CQ / CQE')).toEqual(['CQ', 'CQE']);
    expect(termPhrases('Stack (of a thread)')).toEqual([]);
    expect(termPhrases('Event loop')).toEqual(['Event loop']);
  });
});

describe('glossaryMatcher', () => {
  const matcher = glossaryMatcher(TERMS)!;
  const found = (text: string) => [...text.matchAll(matcher.pattern)].map((m) => m[0]);

  it('finds whole words only, sentence-case terms in either case and plurals of words', () => {
    expect(found('An event loop and two Event loops')).toEqual(['event loop', 'Event loops']);
    expect(found('selected, selects, select')).toEqual(['select']);
    expect(found('a multi-reactor server, not a reactor-like one')).toEqual(['multi-reactor']);
    expect(found('io_uring_enter then io_uring')).toEqual(['io_uring_enter', 'io_uring']);
    expect(found('file descriptors')).toEqual(['file descriptors']);
    expect(found('the TCP stack')).toEqual([]);
  });

  it('matches identifiers and acronyms exactly', () => {
    expect(found('IO_URING, Select, cq, the CQE')).toEqual(['CQE']);
    expect(matcher.termOf('CQE')).toBe('CQ / CQE');
    expect(matcher.termOf('Event loops')).toBe('Event loop');
  });

  it('finds a term beside Chinese characters, which part no words, and still not inside a Latin word', () => {
    const chinese = glossaryMatcher(['就绪队列', 'I/O 多路复用', '栈（线程的）'])!;
    const inChinese = (text: string) => [...text.matchAll(chinese.pattern)].map((m) => m[0]);
    expect(inChinese('内核把套接字放进就绪队列，再由 epoll_wait 取出。')).toEqual(['就绪队列']);
    expect(inChinese('这就是I/O 多路复用；RI/O 多路复用不算。')).toEqual(['I/O 多路复用']);
    expect(inChinese('线程的栈很小。')).toEqual([]);
    expect(found('先调用select，再看selected')).toEqual(['select']);
    expect(render('内核把套接字放进就绪队列。', ['就绪队列'])).toBe(`<p>内核把套接字放进${link('就绪队列', '就绪队列')}。</p>`);
  });

  it('is null without terms', () => {
    expect(glossaryMatcher([])).toBeNull();
  });
});

describe('rehypeGlossaryLinks', () => {
  it('links the first mention of each term only', () => {
    const html = render('An event loop runs. The event loop again, and an epoll instance.');
    expect(html).toBe(
      `<p>An ${link('event loop', 'event-loop')} runs. The event loop again, and an ${link('epoll instance', 'epoll-instance')}.</p>`,
    );
  });

  it('skips code, headings, links and fenced blocks, then links the first mention in prose', () => {
    const html = render(
      [
        '## The event loop',
        '',
        'Call `select` and read [the event loop](https://example.org).',
        '',
        '```experiment',
        'title: an event loop',
        '```',
        '',
        '<details><summary>Why select?</summary>',
        '',
        'Because select is old; an event loop is newer.',
        '',
        '</details>',
      ].join('\n'),
    );
    expect(html).toContain('<h2>The event loop</h2>');
    expect(html).toContain('<code>select</code>');
    expect(html).toContain('<a href="https://example.org">the event loop</a>');
    expect(html).toContain('title: an event loop');
    expect(html).toContain('<summary>Why select?</summary>');
    expect(html).toContain(`Because ${link('select', 'select')} is old; an ${link('event loop', 'event-loop')} is newer.`);
  });

  it('does not link a term the lesson already links to the glossary by hand', () => {
    const html = render('A [reactor](../glossary.md#reactor) here; a reactor there; a CQE.');
    expect(html).toBe(
      `<p>A <a href="../glossary.md#reactor">reactor</a> here; a reactor there; a ${link('CQE', glossaryAnchor('CQ / CQE'))}.</p>`,
    );
  });

  it('does not link a Chinese term linked by hand, its anchor percent-encoded by the renderer', () => {
    const terms = ['闭环 / Closed loop'];
    const html = render('一个[闭环](../glossary.md#闭环-closed-loop)负载；另一个闭环。', terms);
    expect(html).not.toContain('glossary-link');
    expect(render('另一个闭环。', terms)).toContain(link('闭环', '闭环-closed-loop'));
  });

  it('leaves the text alone without terms', () => {
    expect(render('An event loop.', [])).toBe('<p>An event loop.</p>');
  });
});

it('anchors terms as the glossary page ids its headings', () => {
  expect(glossaryAnchor('CQ / CQE')).toBe('cq-cqe');
  expect(glossaryAnchor('Stack (of a thread)')).toBe('stack-of-a-thread');
  expect(glossaryAnchor("Little's law")).toBe('littles-law');
});
