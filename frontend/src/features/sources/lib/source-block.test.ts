import { parse as parseYaml } from 'yaml';

import { i18next } from '@/lib/i18n';

import { parseSourceBlock, readPlainBlock, sourceRequestPath } from './source-block';

describe('parseSourceBlock', () => {
  it('accepts an anchor or a line range', async () => {
    const anchor = await parseSourceBlock('path: servers/c/epoll.c\nanchor: event-loop');
    expect(anchor.ok && sourceRequestPath(anchor.block)).toBe('/sources/servers/c/epoll.c?anchor=event-loop');
    const lines = await parseSourceBlock('path: servers/c/protocol.h\nlines: 10-40');
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
    ['path: a.c\nanchor: x\npath: b.c', /not valid YAML: Map keys must be unique/],
    ['- path: a.c', /must be a YAML mapping/],
  ])('rejects %j', async (text, message) => {
    const result = await parseSourceBlock(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it('names several unknown keys in the plural', async () => {
    const result = await parseSourceBlock('path: a.c\nanchor: x\ncolour: red\nsize: 2');
    expect(!result.ok && result.error).toBe('The source block is invalid: unknown keys "colour", "size".');
  });

  it('says what is wrong in the language of the t it is given', async () => {
    await i18next.loadLanguages('zh');
    const result = await parseSourceBlock('path: ../etc/passwd\nanchor: x', i18next.getFixedT('zh', 'sources'));
    expect(!result.ok && result.error).toBe('源码块无效：path: path 必须是相对于 sandboxes/ 的路径，且不含 ".."。');
  });
});

describe('readPlainBlock', () => {
  it('reads every block of the course without the YAML parser', () => {
    expect(readPlainBlock('path: servers/c/epoll.c\nanchor: event-loop\n')).toEqual({
      yaml: true,
      data: { path: 'servers/c/epoll.c', anchor: 'event-loop' },
    });
    expect(readPlainBlock('path: a.c\n\nlines: 10-40')).toEqual({ yaml: true, data: { path: 'a.c', lines: '10-40' } });
  });

  it.each([
    'path: "a.c"',
    'path: a.c # why',
    'path: a.c\r\nanchor: x',
    'path: a.c\npath: b.c',
    'lines: 1.5',
    'lines: 0o17',
    '  path: a.c',
    'title: two words',
    'null: a.c',
    '',
  ])('leaves %j to the YAML parser', (text) => {
    expect(readPlainBlock(text)).toBeUndefined();
  });

  // Lines made of the pieces where YAML could read a value otherwise than as written: numbers
  // in every notation, null and boolean words, dots, dashes, slashes, colons, quotes, comments.
  const KEYS = ['path', 'anchor', 'lines', 'title', 'null', 'True', 'a_b', 'x1', 'constructor'];
  const PIECES = ['a', 'Z', '_', '/', '.', '-', '0', '7', '10', '0x1f', '0o17', '1e3', '1.5', '.inf', '.nan',
    'null', 'Null', '~', 'true', 'FALSE', 'yes', 'on', ':', ' ', '#', '"', "'", '[', '{', '&', '*', '!', '|', '>',
    '%', '@', '`', ',', '?', 'é'];

  it('reads a plain line exactly as YAML does, or leaves it to YAML', () => {
    let seed = 27;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let read = 0;
    for (let i = 0; i < 4000; i++) {
      const lines = Array.from({ length: 1 + next(3) }, () => {
        const value = Array.from({ length: 1 + next(4) }, () => PIECES[next(PIECES.length)]).join('');
        return `${KEYS[next(KEYS.length)] ?? ''}:${next(4) === 0 ? '  ' : ' '}${value}`;
      });
      const text = lines.join('\n');
      const plain = readPlainBlock(text);
      if (plain === undefined) continue;
      read++;
      expect(plain, text).toEqual({ yaml: true, data: parseYaml(text) as unknown });
    }
    // The check means something only if many lines were read here rather than left to YAML.
    expect(read).toBeGreaterThan(500);
  });
});
