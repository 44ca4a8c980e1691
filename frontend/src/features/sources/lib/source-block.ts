/**
 * The ```source fenced block: `path` (relative to sandboxes/) and either
 * `anchor: NAME` or `lines: A-B` (docs/ARCHITECTURE.md).
 */
import type { TFunction } from 'i18next';
import { parse as parseYaml } from 'yaml';
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

/** A block's text parsed, or what is wrong with it in words (`t`'s language: the interface's by default). */
export function parseSourceBlock(
  text: string,
  t: TFunction<'sources'> = i18next.getFixedT(null, 'sources'),
): SourceBlockParseResult {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    return { ok: false, error: t('parse.notYaml', { error: message }) };
  }
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

/** GET /api/sources/{path}?anchor=… | ?lines=… — each path segment URL-encoded. */
export function sourceRequestPath(block: SourceBlock): string {
  const path = block.path.split('/').map(encodeURIComponent).join('/');
  const query = block.anchor !== undefined ? `anchor=${encodeURIComponent(block.anchor)}` : `lines=${block.lines ?? ''}`;
  return `/sources/${path}?${query}`;
}
