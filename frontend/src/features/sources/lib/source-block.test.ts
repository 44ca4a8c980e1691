import { i18next } from '@/lib/i18n';

import { parseSourceBlock, sourceRequestPath } from './source-block';

describe('parseSourceBlock', () => {
  it('accepts an anchor or a line range', () => {
    const anchor = parseSourceBlock('path: servers/c/epoll.c\nanchor: event-loop');
    expect(anchor.ok && sourceRequestPath(anchor.block)).toBe('/sources/servers/c/epoll.c?anchor=event-loop');
    const lines = parseSourceBlock('path: servers/c/protocol.h\nlines: 10-40');
    expect(lines.ok && sourceRequestPath(lines.block)).toBe('/sources/servers/c/protocol.h?lines=10-40');
  });

  it.each([
    ['path: a.c', /exactly one of anchor or lines/],
    ['path: a.c\nanchor: x\nlines: 1-2', /exactly one/],
    ['anchor: x', /path is required/],
    ['path: ../etc/passwd\nanchor: x', /without "\.\."/],
    ['path: a.c\nlines: 40-10', /1 ≤ A ≤ B/],
    ['path: a.c\nlines: ten', /lines must look like 10-40/],
    ['path: a.c\nanchor: x\ncolour: red', /unknown key "colour"/],
    ['path: [a.c', /not valid YAML/],
  ])('rejects %j', (text, message) => {
    const result = parseSourceBlock(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it('names several unknown keys in the plural', () => {
    const result = parseSourceBlock('path: a.c\nanchor: x\ncolour: red\nsize: 2');
    expect(!result.ok && result.error).toBe('The source block is invalid: unknown keys "colour", "size".');
  });

  it('says what is wrong in the language of the t it is given', async () => {
    await i18next.loadLanguages('zh');
    const result = parseSourceBlock('path: ../etc/passwd\nanchor: x', i18next.getFixedT('zh', 'sources'));
    expect(!result.ok && result.error).toBe('源码块无效：path: path 必须是相对于 sandboxes/ 的路径，且不含 ".."。');
  });
});
