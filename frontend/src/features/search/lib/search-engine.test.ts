import { describe, expect, it } from 'vitest';

import { createCourseSearch, snippet } from './search-engine';

const lessons = [
  {
    slug: '05-epoll',
    title: 'epoll',
    summary: 'Readiness without scanning every socket.',
    order: 5,
    markdown: `## Edge-triggered mode\n\nReport a socket once per change. Backpressure is mentioned here in passing.\n\n## The ready list\n\nWhere ready sockets wait for epoll_wait.\n`,
  },
  {
    slug: '02-blocking-servers',
    title: 'Blocking servers',
    summary: 'One thread per connection.',
    order: 2,
    markdown: `## Fork per connection\n\nA process per client: fork and exec.\n`,
  },
];
const glossary = {
  markdown: `## A–C\n\n### Backpressure\n\nSlowing a fast sender down to a slow receiver.\n\n### Edge-triggered\n\nReported once per change.\n`,
};

describe('course search', () => {
  const search = createCourseSearch(lessons, glossary);

  it('indexes every lesson opening, section and term', () => {
    expect(search.size).toBe(3 + 2 + 2);
  });

  it('ranks a term or heading above a mention in passing', () => {
    const hits = search.search('backpressure');
    expect(hits.map((h) => h.href)).toEqual(['/glossary#backpressure', '/lessons/05-epoll#edge-triggered-mode']);
  });

  it('needs every word, and takes the last as a prefix while typing', () => {
    expect(search.search('ready epo').map((h) => h.title)).toEqual(['The ready list']);
    expect(search.search('fork proc').map((h) => h.href)).toEqual(['/lessons/02-blocking-servers#fork-per-connection']);
    expect(search.search('fork nonsense')).toEqual([]);
  });

  it('forgives a typo in a longer word, not in a short one', () => {
    expect(search.search('backpresure')[0]?.title).toBe('Backpressure');
    expect(search.search('fprk')).toEqual([]);
  });

  it('finds nothing for a blank query and keeps to the limit', () => {
    expect(search.search('   ')).toEqual([]);
    expect(search.search('edge', 1)).toHaveLength(1);
  });

  it('works without a glossary', () => {
    expect(createCourseSearch(lessons, null).search('backpressure').map((h) => h.kind)).toEqual(['section']);
  });
});

describe('snippet', () => {
  const text = `${'Words before the match. '.repeat(6)}Here the thundering herd wakes every worker at once, ${'and then some more words. '.repeat(6)}`;

  it('cuts a window around the first word found, at word boundaries', () => {
    const cut = snippet(text, ['thundering']);
    expect(cut).toMatch(/^….*thundering herd.*…$/);
    expect(cut.length).toBeLessThanOrEqual(112);
  });

  it('keeps a short text whole and starts at the beginning when nothing is found', () => {
    expect(snippet('Short.', ['x'])).toBe('Short.');
    expect(snippet(text, ['absent']).startsWith('Words before')).toBe(true);
  });
});
