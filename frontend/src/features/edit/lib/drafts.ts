/**
 * What a learner typed, kept in this browser per server (the free editor) or per exercise (an
 * answer) until they reset it: a reload, a closed tab or a refused build loses nothing. With
 * it, the last build of that server or answer, so a reload follows it again (its events replay
 * from the first) and its outcome comes back.
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
/** An exercise's answer is kept apart from the free editor's drafts of its server. */
export const exerciseDraftKey = (slug: string) => `c10klab:exercise-draft:v1:${slug}`;
export const lastAnswerKey = (slug: string) => `c10klab:exercise-answer:v1:${slug}`;

function forget(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Storage disabled: there was nothing kept to forget.
  }
}

function readDraftAt(key: string): Draft | null {
  return readStored(key, draftSchema.nullable(), null);
}

/** Keeps `text` at `key`; true when it was kept (read back the same), false when the browser
 *  would not (storage full or disabled), so the page never says "saved" wrongly. */
function saveDraftAt(key: string, text: string, from: string | null, now: Date): boolean {
  writeStored(key, { version: 1, text, from, savedAt: now.toISOString() } satisfies Draft);
  return readDraftAt(key)?.text === text;
}

/** The last build kept at `key` (lastBuildKey, lastAnswerKey). */
export function readBuildAt(key: string): LastBuild | null {
  const stored = readStored(key, lastBuildSchema.nullable(), null);
  return stored ? { variantId: stored.variantId, runId: stored.runId } : null;
}

export function saveBuildAt(key: string, build: LastBuild): void {
  writeStored(key, { version: 1, ...build });
}

export const clearBuildAt = forget;

// --- a server's draft in the free editor, and its last build ---

export function readDraft(server: string): Draft | null {
  return readDraftAt(draftKey(server));
}

export function saveDraft(server: string, text: string, from: string | null, now: Date = new Date()): boolean {
  return saveDraftAt(draftKey(server), text, from, now);
}

export function clearDraft(server: string): void {
  forget(draftKey(server));
}

export function readLastBuild(server: string): LastBuild | null {
  return readBuildAt(lastBuildKey(server));
}

export function saveLastBuild(server: string, build: LastBuild): void {
  saveBuildAt(lastBuildKey(server), build);
}

export function clearLastBuild(server: string): void {
  forget(lastBuildKey(server));
}

// --- an exercise's answer as it is written, and the last one checked ---

export function readExerciseDraft(slug: string): Draft | null {
  return readDraftAt(exerciseDraftKey(slug));
}

export function saveExerciseDraft(slug: string, text: string, now: Date = new Date()): boolean {
  return saveDraftAt(exerciseDraftKey(slug), text, null, now);
}

export function clearExerciseDraft(slug: string): void {
  forget(exerciseDraftKey(slug));
}

export function readLastAnswer(slug: string): LastBuild | null {
  return readBuildAt(lastAnswerKey(slug));
}

export function saveLastAnswer(slug: string, build: LastBuild): void {
  saveBuildAt(lastAnswerKey(slug), build);
}

export function clearLastAnswer(slug: string): void {
  forget(lastAnswerKey(slug));
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
