/**
 * The ```source fenced block: `path` (relative to sandboxes/) and either
 * `anchor: NAME` or `lines: A-B` (docs/ARCHITECTURE.md), written in YAML.
 *
 * Every block of the course is a few `key: word` lines, and the YAML parser is 30 kB of
 * compressed JavaScript, a tenth of a lesson's budget: such lines are read here, to exactly
 * what YAML makes of them (source-block.test.ts holds the two to it), and the parser is
 * fetched only for a block written any other way.
 */
import type { TFunction } from 'i18next';
import { z } from 'zod';

import { i18next } from '@/lib/i18n';

/**
 * What the schema says of a wrong block, as keys of `sources:parse`: put in words when a block
 * is parsed, in the language of the `t` it is given.
 */
const PROBLEMS = {
  pathRequired: 'pathRequired',
  pathRelative: 'pathRelative',
  anchorName: 'anchorName',
  linesFormat: 'linesFormat',
  oneOf: 'oneOf',
  linesRange: 'linesRange',
} as const;
type Problem = (typeof PROBLEMS)[keyof typeof PROBLEMS];

function isProblem(message: string): message is Problem {
  return Object.values<string>(PROBLEMS).includes(message);
}

export const sourceBlockSchema = z
  .strictObject({
    path: z
      .string({ error: PROBLEMS.pathRequired })
      .min(1)
      .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), { message: PROBLEMS.pathRelative }),
    anchor: z.string().regex(/^[A-Za-z0-9_.-]+$/, PROBLEMS.anchorName).optional(),
    lines: z
      .union([z.string(), z.number()])
      .transform(String)
      .pipe(z.string().regex(/^\d+(-\d+)?$/, PROBLEMS.linesFormat))
      .optional(),
    title: z.string().optional(),
  })
  .refine((b) => (b.anchor === undefined) !== (b.lines === undefined), { message: PROBLEMS.oneOf })
  .refine(
    (b) => {
      if (!b.lines) return true;
      const [from, to] = b.lines.split('-').map(Number);
      return from !== undefined && from >= 1 && (to === undefined || to >= from);
    },
    { message: PROBLEMS.linesRange },
  );

export type SourceBlock = z.infer<typeof sourceBlockSchema>;

export type SourceBlockParseResult = { ok: true; block: SourceBlock } | { ok: false; error: string };

/** A block's text as YAML reads it: its data, or the first line of the YAML parser's error. */
export type SourceBlockText = { yaml: true; data: unknown } | { yaml: false; error: string };

/** `key: value`, a key YAML reads as a string and a value of no space, quote, colon or `#`. */
const PLAIN_LINE = /^([a-z][a-z_]*): +([A-Za-z0-9_/][A-Za-z0-9_./-]*)$/;
/** Words YAML 1.2's core schema (the parser's default) reads as null or a boolean. */
const NOT_STRINGS: Record<string, null | boolean> = {
  null: null, Null: null, NULL: null,
  true: true, True: true, TRUE: true,
  false: false, False: false, FALSE: false,
};

/** One value as the core schema reads it: a decimal integer, a null or boolean word, or a
 *  string. Undefined for anything else starting with a digit (1.5, 1e3, 0x1f, 0o17), left to YAML. */
function plainValue(value: string): string | number | boolean | null | undefined {
  if (Object.hasOwn(NOT_STRINGS, value)) return NOT_STRINGS[value];
  if (/^[0-9]+$/.test(value)) return Number.parseInt(value, 10);
  if (/^[0-9]/.test(value) && !/^[0-9]+-[0-9]+$/.test(value)) return undefined;
  return value;
}

/**
 * A block of `key: value` lines (blank lines allowed), read as YAML reads it; undefined for
 * any other text (a comment, quotes, a list, a repeated key, Windows line ends, …).
 */
export function readPlainBlock(text: string): SourceBlockText | undefined {
  const data: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [, key, raw] = PLAIN_LINE.exec(line) ?? [];
    if (key === undefined || raw === undefined || Object.hasOwn(NOT_STRINGS, key) || Object.hasOwn(data, key)) return undefined;
    const value = plainValue(raw);
    if (value === undefined) return undefined;
    data[key] = value;
  }
  return Object.keys(data).length > 0 ? { yaml: true, data } : undefined;
}

/** Any block's text read by the YAML parser, which is fetched for it. */
export async function readYamlBlock(text: string): Promise<SourceBlockText> {
  const { parse } = await import('yaml');
  try {
    return { yaml: true, data: parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    return { yaml: false, error: message };
  }
}

/** A block read from its YAML checked, or what is wrong with it in words (`t`'s language:
 *  the interface's by default). */
export function checkSourceBlock(
  read: SourceBlockText,
  t: TFunction<'sources'> = i18next.getFixedT(null, 'sources'),
): SourceBlockParseResult {
  if (!read.yaml) return { ok: false, error: t('parse.notYaml', { error: read.error }) };
  const { data } = read;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: t('parse.notMapping') };
  }
  const parsed = sourceBlockSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => {
        if (i.code === 'unrecognized_keys') {
          return t('parse.unknownKeys', { count: i.keys.length, keys: i.keys.map((k) => `"${k}"`).join(', ') });
        }
        const message = isProblem(i.message) ? t(`parse.${i.message}`) : i.message;
        return i.path.length ? `${i.path.join('.')}: ${message}` : message;
      })
      .join('; ');
    return { ok: false, error: t('parse.invalid', { problems }) };
  }
  return { ok: true, block: parsed.data };
}

/** A block's text parsed, or what is wrong with it in words (`t`'s language: the interface's by default). */
export async function parseSourceBlock(
  text: string,
  t: TFunction<'sources'> = i18next.getFixedT(null, 'sources'),
): Promise<SourceBlockParseResult> {
  return checkSourceBlock(readPlainBlock(text) ?? (await readYamlBlock(text)), t);
}

/** GET /api/sources/{path}?anchor=… | ?lines=… — each path segment URL-encoded. */
export function sourceRequestPath(block: SourceBlock): string {
  const path = block.path.split('/').map(encodeURIComponent).join('/');
  const query = block.anchor !== undefined ? `anchor=${encodeURIComponent(block.anchor)}` : `lines=${block.lines ?? ''}`;
  return `/sources/${path}?${query}`;
}
