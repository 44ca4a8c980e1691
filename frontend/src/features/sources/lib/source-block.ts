/**
 * The ```source fenced block: `path` (relative to sandboxes/) and either
 * `anchor: NAME` or `lines: A-B` (docs/ARCHITECTURE.md).
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const sourceBlockSchema = z
  .strictObject({
    path: z
      .string({ error: 'path is required (relative to sandboxes/, e.g. servers/c/epoll.c)' })
      .min(1)
      .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), {
        message: 'path must be relative to sandboxes/ without ".."',
      }),
    anchor: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'anchor must be a name such as event-loop')
      .optional(),
    lines: z
      .union([z.string(), z.number()])
      .transform(String)
      .pipe(z.string().regex(/^\d+(-\d+)?$/, 'lines must look like 10-40'))
      .optional(),
    title: z.string().optional(),
  })
  .refine((b) => (b.anchor === undefined) !== (b.lines === undefined), {
    message: 'give exactly one of anchor or lines',
  })
  .refine(
    (b) => {
      if (!b.lines) return true;
      const [from, to] = b.lines.split('-').map(Number);
      return from !== undefined && from >= 1 && (to === undefined || to >= from);
    },
    { message: 'lines must be a range A-B with 1 ≤ A ≤ B' },
  );

export type SourceBlock = z.infer<typeof sourceBlockSchema>;

export type SourceBlockParseResult = { ok: true; block: SourceBlock } | { ok: false; error: string };

export function parseSourceBlock(text: string): SourceBlockParseResult {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    return { ok: false, error: `The source block is not valid YAML: ${message}` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: 'The source block must be a YAML mapping with `path` and `anchor` or `lines`.' };
  }
  const parsed = sourceBlockSchema.safeParse(data);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) =>
        i.code === 'unrecognized_keys'
          ? `unknown key ${i.keys.map((k) => `"${k}"`).join(', ')}`
          : i.path.length
            ? `${i.path.join('.')}: ${i.message}`
            : i.message,
      )
      .join('; ');
    return { ok: false, error: `The source block is invalid: ${detail}.` };
  }
  return { ok: true, block: parsed.data };
}

/** GET /api/sources/{path}?anchor=… | ?lines=… — each path segment URL-encoded. */
export function sourceRequestPath(block: SourceBlock): string {
  const path = block.path.split('/').map(encodeURIComponent).join('/');
  const query = block.anchor !== undefined ? `anchor=${encodeURIComponent(block.anchor)}` : `lines=${block.lines ?? ''}`;
  return `/sources/${path}?${query}`;
}
