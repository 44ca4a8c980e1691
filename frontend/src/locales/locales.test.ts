import { describe, expect, it } from 'vitest';

import { en } from './en';

interface Tree { [key: string]: string | Tree }

const zhFiles = import.meta.glob<Tree>('./zh/*.json', { eager: true, import: 'default' });
const enFiles = import.meta.glob<Tree>('./en/*.json', { eager: true, import: 'default' });
const zh = Object.fromEntries(Object.entries(zhFiles).map(([path, tree]) => [path.slice('./zh/'.length, -'.json'.length), tree]));

// i18next's plural forms: English has one and other; Chinese has only other.
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** The keys a translation must have: a plural group is one key, its `_other` form. */
function required(strings: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of strings) {
    if (!PLURAL.test(key)) out.set(key, value);
    else if (key.endsWith('_other')) out.set(key, value);
  }
  return out;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|<(\w+)>/g)].map((m) => m[1] ?? `<${m[2]}>`).sort();
}

describe('the interface strings', () => {
  it('has the same namespaces in English and Chinese, each bundled English one in index.ts', () => {
    const files = Object.keys(enFiles).map((p) => p.slice('./en/'.length, -'.json'.length)).sort();
    expect(Object.keys(en).sort()).toEqual(files);
    expect(Object.keys(zh).sort()).toEqual(files);
  });

  for (const ns of Object.keys(en) as (keyof typeof en)[]) {
    describe(ns, () => {
      const english = flatten(en[ns]);
      const chinese = flatten(zh[ns] ?? {});

      it('Chinese has every English key, and no other', () => {
        const need = [...required(english).keys()].sort();
        const have = [...chinese.keys()].filter((k) => !PLURAL.test(k) || k.endsWith('_other')).sort();
        expect(have).toEqual(need);
        // A plural form English lacks would never be used.
        expect([...chinese.keys()].filter((k) => PLURAL.test(k) && !k.endsWith('_other'))).toEqual([]);
      });

      it('keeps every placeholder and tag, and leaves nothing empty', () => {
        for (const [key, text] of required(english)) {
          const translated = chinese.get(key);
          if (translated === undefined) continue; // said by the test above
          expect(translated.trim(), `${ns}:${key} is empty`).not.toBe('');
          expect(placeholders(translated), `${ns}:${key}`).toEqual(placeholders(text));
        }
        for (const [key, text] of english) expect(text.trim(), `${ns}:${key} is empty in English`).not.toBe('');
      });
    });
  }
});
