import { lessonHref, slugify } from './markdown';

describe('markdown helpers', () => {
  it('maps lesson file links to routes', () => {
    expect(lessonHref('02-blocking.md')).toBe('/lessons/02-blocking');
    expect(lessonHref('./03-select-poll.md#limits')).toBe('/lessons/03-select-poll#limits');
    expect(lessonHref('https://example.org/a.md')).toBeNull();
    expect(lessonHref(undefined)).toBeNull();
  });

  it('slugifies headings like GitHub', () => {
    expect(slugify('Why `select()` stops at 1024!')).toBe('why-select-stops-at-1024');
  });
});
