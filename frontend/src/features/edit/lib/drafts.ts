/**
 * What a learner typed, kept in this browser per server until they reset it: a reload, a closed
 * tab or a refused build loses nothing. With it, the last build of that server, so a reload
 * follows it again (its events replay from the first) and its diagnostics come back.
 */
import { z } from 'zod';

import { readStored, writeStored } from '@/lib/storage';

const draftSchema = z.object({
  version: z.literal(1),
  text: z.string(),
  /** The variant this draft started from (`?from=`), or null for the original. */
  from: z.string().nullable(),
  savedAt: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;

const lastBuildSchema = z.object({ version: z.literal(1), variantId: z.string(), runId: z.string() });
export type LastBuild = Omit<z.infer<typeof lastBuildSchema>, 'version'>;

export const draftKey = (server: string) => `c10klab:edit-draft:v1:${server}`;
export const lastBuildKey = (server: string) => `c10klab:edit-build:v1:${server}`;

function forget(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Storage disabled: there was nothing kept to forget.
  }
}

export function readDraft(server: string): Draft | null {
  return readStored(draftKey(server), draftSchema.nullable(), null);
}

/**
 * Keeps `text` as the server's draft; true when it was kept (read back the same), false when
 * the browser would not (storage full or disabled), so the page never says "saved" wrongly.
 */
export function saveDraft(server: string, text: string, from: string | null, now: Date = new Date()): boolean {
  writeStored(draftKey(server), { version: 1, text, from, savedAt: now.toISOString() } satisfies Draft);
  return readDraft(server)?.text === text;
}

export function clearDraft(server: string): void {
  forget(draftKey(server));
}

export function readLastBuild(server: string): LastBuild | null {
  const stored = readStored(lastBuildKey(server), lastBuildSchema.nullable(), null);
  return stored ? { variantId: stored.variantId, runId: stored.runId } : null;
}

export function saveLastBuild(server: string, build: LastBuild): void {
  writeStored(lastBuildKey(server), { version: 1, ...build });
}

export function clearLastBuild(server: string): void {
  forget(lastBuildKey(server));
}

/**
 * The text the editor opens with: a draft that continues what was asked for (the original, or
 * the variant of `?from=`), else what was asked for. `setAside` is a draft of something else,
 * kept until the learner types (the page offers it back).
 */
export function startingText(
  draft: Draft | null,
  from: string | null,
  asked: string,
): { text: string; fromDraft: boolean; setAside: Draft | null } {
  if (draft?.from === from) return { text: draft.text, fromDraft: true, setAside: null };
  return { text: asked, fromDraft: false, setAside: draft && draft.text !== asked ? draft : null };
}
