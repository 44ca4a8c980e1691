import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { serverListSchema, type Knob } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import enBench from '@/locales/en/bench.json';
import zhBench from '@/locales/zh/bench.json';

import { knobLabel, knobValue, knobWords, type KnobWords } from './knob-display';

beforeAll(async () => {
  await i18next.loadLanguages('zh');
  await i18next.loadNamespaces('bench');
});

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');
const zh = i18next.getFixedT('zh', 'bench');

const knob = (extra: Partial<Knob>): Knob => ({ name: 'k', label: 'k', flag: '--k', type: 'int', default: 0, help: 'h', ...extra });

describe('knob display', () => {
  it('reads a knob by its label, or its name in words when nobody names it', () => {
    expect(knobLabel('stack_kib', knob({ name: 'stack_kib', label: 'thread stack' }), t)).toBe('thread stack');
    expect(knobLabel('jitter_ms', undefined, t)).toBe('jitter ms');
  });

  it('writes a value in its unit, counted things agreeing in number', () => {
    expect(knobValue(8192, knob({ unit: 'KiB' }), t)).toBe('8,192 KiB');
    expect(knobValue(16384, knob({ unit: 'bytes' }), t)).toBe('16 KiB');
    expect(knobValue(1, knob({ unit: 'threads' }), t)).toBe('1 thread');
    expect(knobValue(4, knob({ unit: 'threads' }), t)).toBe('4 threads');
    expect(knobValue(1024, knob({ unit: 'entries' }), t)).toBe('1,024 entries');
    expect(knobValue(1, knob({ unit: 'entries' }), t)).toBe('1 entry');
    expect(knobValue(true, knob({ type: 'bool' }), t)).toBe('on');
    expect(knobValue(false, knob({ type: 'bool' }), t)).toBe('off');
    expect(knobValue('et', knob({ type: 'enum' }), t)).toBe('et');
    expect(knobValue(64, undefined, t)).toBe('64');
  });

  it('says a knob in the reader’s language, by its server where the name means something else there', () => {
    const buffer = knob({ name: 'buffer_bytes', label: 'read buffer', unit: 'bytes', help: 'bytes asked for by each read()' });
    expect(knobWords('buffer_bytes', buffer, zh)).toEqual({ label: '读缓冲区', help: '每次 read() 请求读取的字节数', unit: '字节', units: '字节' });
    expect(knobWords('buffer_bytes', buffer, zh, 'c-io-uring').help).toBe('每块接收缓冲区的大小：一次 recv 完成事件最多交付的字节数');
    expect(knobValue(16384, buffer, zh)).toBe('16 KiB');
    const workers = knob({ name: 'workers', label: 'event loops', unit: 'processes' });
    expect(knobLabel('workers', workers, zh, 'c-preforked')).toBe('工作进程数');
    expect(knobValue(4, workers, zh, 'c-preforked')).toBe('4 个进程');
    expect(knobValue(1, workers, t, 'c-preforked')).toBe('1 process');
    expect(knobValue(true, knob({ name: 'sqpoll', type: 'bool' }), zh)).toBe('开');
  });

  it('keeps the catalog’s words for a knob the interface does not know', () => {
    const jitter = knob({ name: 'jitter_ms', label: 'added jitter', help: 'delay added to each reply', unit: 'ms' });
    expect(knobWords('jitter_ms', jitter, zh)).toEqual({ label: 'added jitter', help: 'delay added to each reply', unit: 'ms', units: 'ms' });
    expect(knobValue(3, jitter, zh)).toBe('3 ms');
  });
});

/** The servers' catalog, as GET /api/servers serves it. */
const catalog = serverListSchema.parse(
  (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'sandboxes', 'catalog.json'), 'utf8')) as { servers: unknown }).servers,
);

type Words = Record<string, Partial<KnobWords> | undefined>;
const LANGUAGES: [string, { knob: { words: Words; serverWords: Record<string, Words | undefined> } }][] = [
  ['en', enBench],
  ['zh', zhBench],
];

describe('the catalog’s knobs in the interface’s words', () => {
  it('names every knob of every server in each language: its label, help and unit if it has one', () => {
    expect(catalog.length).toBeGreaterThan(0);
    for (const [language, { knob: strings }] of LANGUAGES) {
      for (const server of catalog) {
        for (const k of server.knobs) {
          const words = { ...strings.words[k.name], ...strings.serverWords[server.id]?.[k.name] };
          const where = `${language}: ${server.id} ${k.name}`;
          expect(words.label?.trim(), `${where} has no label`).toBeTruthy();
          expect(words.help?.trim(), `${where} has no help`).toBeTruthy();
          expect(Boolean(words.unit && words.units), `${where}: a unit for one and for several, as the catalog has one`).toBe(Boolean(k.unit));
        }
      }
    }
  });

  it('says in English what the catalog says, so a changed knob is seen here and said in Chinese too', () => {
    for (const server of catalog) {
      for (const k of server.knobs) {
        const words = knobWords(k.name, undefined, t, server.id);
        expect({ label: words.label, help: words.help, units: words.units }, `${server.id} ${k.name}`).toEqual({
          label: k.label,
          help: k.help,
          units: k.unit ?? undefined,
        });
      }
    }
  });

  it('has words only for knobs the catalog has', () => {
    const names = new Set(catalog.flatMap((s) => s.knobs.map((k) => k.name)));
    for (const [, { knob: strings }] of LANGUAGES) {
      expect(Object.keys(strings.words).filter((name) => !names.has(name))).toEqual([]);
      for (const [id, words] of Object.entries(strings.serverWords)) {
        const own = catalog.find((s) => s.id === id)?.knobs.map((k) => k.name) ?? [];
        expect(Object.keys(words ?? {}).filter((name) => !own.includes(name)), id).toEqual([]);
      }
    }
  });
});
