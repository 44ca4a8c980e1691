import { lessonHref, slugify } from './markdown';

describe('markdown helpers', () => {
  it('maps lesson file links to routes', () => {
    expect(lessonHref('02-blocking.md')).toBe('/lessons/02-blocking');
    expect(lessonHref('./03-select-poll.md#limits')).toBe('/lessons/03-select-poll#limits');
    expect(lessonHref('https://example.org/a.md')).toBeNull();
    expect(lessonHref(undefined)).toBeNull();
    expect(lessonHref('lessons/05-epoll.md')).toBe('/lessons/05-epoll');
    expect(lessonHref('../glossary.md#edge-triggered')).toBe('/glossary#edge-triggered');
    // A Chinese heading's id, as written and as the Markdown renderer encodes it.
    expect(lessonHref('../glossary.md#闭环-closed-loop')).toBe('/glossary#闭环-closed-loop');
    expect(lessonHref('../glossary.md#%E9%97%AD%E7%8E%AF-closed-loop')).toBe('/glossary#%E9%97%AD%E7%8E%AF-closed-loop');
    expect(lessonHref('05-epoll.md#边缘触发')).toBe('/lessons/05-epoll#边缘触发');
    expect(lessonHref('glossary.md')).toBe('/glossary');
  });

  it('slugifies headings like GitHub', () => {
    expect(slugify('Why `select()` stops at 1024!')).toBe('why-select-stops-at-1024');
  });
});
