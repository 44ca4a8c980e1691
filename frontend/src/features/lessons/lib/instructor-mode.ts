/**
 * Instructor mode: shows the lessons' speaker notes. Kept in localStorage
 * (validated with zod), shared between tabs, and switchable from the URL with
 * `?instructor=1` / `?instructor=0` — in the hash route (`#/lessons/x?instructor=1`)
 * or before it (`/?instructor=1#/lessons/x`).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';

import { readStored, writeStored } from '@/lib/storage';

export const INSTRUCTOR_KEY = 'c10klab:instructor:v1';
export const INSTRUCTOR_PARAM = 'instructor';
const CHANGE_EVENT = 'c10klab:instructor-change';

const storedSchema = z.object({ version: z.literal(1), enabled: z.boolean() });
const urlFlagSchema = z.enum(['0', '1', 'false', 'true', 'off', 'on']).transform((v) => ['1', 'true', 'on'].includes(v));

/** `?instructor=1` → true, `=0` → false, absent or anything else → undefined (no opinion). */
export function parseInstructorFlag(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  const parsed = urlFlagSchema.safeParse(value.trim().toLowerCase());
  return parsed.success ? parsed.data : undefined;
}

export function readInstructorMode(): boolean {
  return readStored(INSTRUCTOR_KEY, storedSchema, { version: 1, enabled: false }).enabled;
}

export function setInstructorMode(enabled: boolean): void {
  if (readInstructorMode() === enabled) return;
  writeStored(INSTRUCTOR_KEY, { version: 1, enabled });
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === INSTRUCTOR_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

/** Whether speaker notes are shown, and a setter. A `?instructor=` flag in the URL is applied on arrival. */
export function useInstructorMode() {
  const [searchParams] = useSearchParams();
  const fromUrl = parseInstructorFlag(
    searchParams.get(INSTRUCTOR_PARAM) ?? new URLSearchParams(window.location.search).get(INSTRUCTOR_PARAM),
  );
  useEffect(() => {
    if (fromUrl !== undefined) setInstructorMode(fromUrl);
  }, [fromUrl]);
  const stored = useSyncExternalStore(subscribe, readInstructorMode, () => false);
  return { enabled: stored, setEnabled: setInstructorMode };
}
