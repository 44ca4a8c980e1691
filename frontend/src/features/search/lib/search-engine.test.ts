import { describe, expect, it } from 'vitest';

import { createCourseSearch, snippet, tokenize } from './search-engine';

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

describe('Chinese text', () => {
  const chinese = [
    {
      slug: '05-epoll',
      title: 'epoll',
      summary: '无需逐个扫描套接字就能知道谁已就绪。',
      order: 5,
      markdown: `## 就绪队列\n\n内核把已就绪的套接字放进就绪队列，epoll_wait 从中取出。\n\n## 边缘触发\n\n状态变化时只通知一次。\n`,
    },
  ];
  const search = createCourseSearch(chinese, null);

  it('splits a run of Han characters into overlapping pairs, and other words as MiniSearch does', () => {
    expect(tokenize('内核把就绪队列交给epoll_wait')).toEqual(['内核', '核把', '把就', '就绪', '绪队', '队列', '列交', '交给', 'epoll', 'wait']);
    expect(tokenize('锁')).toEqual(['锁']);
  });

  it('finds a word wherever it begins in a sentence, and the word being typed', () => {
    expect(search.search('就绪队列').map((h) => h.title)).toEqual(['就绪队列']);
    expect(search.search('已就绪').map((h) => h.title)).toEqual(['就绪队列', 'epoll']); // a heading weighs more
    expect(search.search('边缘触').map((h) => h.href)).toEqual(['/lessons/05-epoll#边缘触发']);
    expect(search.search('就绪 epoll_wait').map((h) => h.title)).toEqual(['就绪队列']);
    expect(search.search('水平触发')).toEqual([]);
  });

  it('cuts a snippet of text without spaces around the word found', () => {
    const text = `${'前面的文字。'.repeat(20)}这里是惊群：一个连接唤醒所有进程。${'后面的文字。'.repeat(20)}`;
    const cut = snippet(text, ['惊群']);
    expect(cut).toMatch(/^….*这里是惊群.*…$/);
    expect(cut.length).toBeLessThanOrEqual(112);
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
