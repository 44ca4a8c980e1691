/**
 * Which lessons the learner has read, kept in localStorage (validated with zod)
 * and shared between tabs through the `storage` event.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { z } from 'zod';

import { readStored, writeStored } from '@/lib/storage';

export const PROGRESS_KEY = 'c10klab:progress:v1';
const CHANGE_EVENT = 'c10klab:progress-change';

export const progressSchema = z.object({
  version: z.literal(1),
  /** slug → ISO time it was marked read */
  read: z.record(z.string(), z.string()),
});
export type Progress = z.infer<typeof progressSchema>;

const EMPTY: Progress = { version: 1, read: {} };

let cachedRaw: string | null | undefined;
let cachedValue: Progress = EMPTY;

function rawValue(): string | null {
  try {
    return window.localStorage.getItem(PROGRESS_KEY);
  } catch {
    return null;
  }
}

export function readProgress(): Progress {
  const raw = rawValue();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedValue = readStored(PROGRESS_KEY, progressSchema, EMPTY);
  }
  return cachedValue;
}

export function setLessonRead(slug: string, read: boolean): void {
  const current = readProgress();
  const others = Object.entries(current.read).filter(([key]) => key !== slug);
  if (read) others.push([slug, new Date().toISOString()]);
  const next: Progress = { version: 1, read: Object.fromEntries(others) };
  writeStored(PROGRESS_KEY, next);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

export function useProgress() {
  const progress = useSyncExternalStore(subscribe, readProgress, () => EMPTY);
  const isRead = useCallback((slug: string) => slug in progress.read, [progress]);
  return { progress, isRead, setRead: setLessonRead };
}
