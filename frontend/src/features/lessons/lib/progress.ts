/**
 * Which lessons the learner has read. In solo mode (and for a class's anonymous visitor) they
 * are kept in localStorage (validated with zod) and shared between tabs through the `storage`
 * event; for someone signed in to a class, on the server (GET /api/progress, PUT/DELETE
 * /api/progress/read/{slug}), where the instructor's roster counts them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { z } from 'zod';

import { readStored, writeStored } from '@/lib/storage';

import { markLessonRead, serverProgressQuery, setCurrentLesson, type ServerProgress } from '../api/progress';

import type { ProgressStore } from './reader';

export const PROGRESS_KEY = 'c10klab:progress:v1';
const CHANGE_EVENT = 'c10klab:progress-change';

export const progressSchema = z.object({
  version: z.literal(1),
  /** slug → ISO time it was marked read */
  read: z.record(z.string(), z.string()),
});
export type Progress = z.infer<typeof progressSchema>;

const EMPTY: Progress = { version: 1, read: {} };
const IN_BROWSER: ProgressStore = { in: 'browser' };

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

export interface UseProgress {
  isRead: (slug: string) => boolean;
  setRead: (slug: string, read: boolean) => void;
  /** False while who reads is not known yet: nothing can be saved. */
  canSave: boolean;
  /** Why the last change could not be saved on the server (it is undone), or null. */
  saveError: Error | null;
}

/** The reader's progress from wherever `store` says it is kept (the browser by default). */
export function useProgress(store: ProgressStore = IN_BROWSER): UseProgress {
  const local = useSyncExternalStore(subscribe, readProgress, () => EMPTY);
  const personId = store.in === 'server' ? store.personId : '';
  const query = serverProgressQuery(personId);
  const server = useQuery({ ...query, enabled: store.in === 'server' });
  const client = useQueryClient();
  const mark = useMutation({
    mutationFn: ({ slug, read }: { slug: string; read: boolean }) => markLessonRead(slug, read),
    // The box ticks at once; the answer (or, on failure, the state before) replaces it.
    onMutate: async ({ slug, read }) => {
      await client.cancelQueries({ queryKey: query.queryKey });
      const before = client.getQueryData(query.queryKey);
      client.setQueryData(query.queryKey, (p): ServerProgress => {
        const others = (p?.read ?? []).filter((s) => s !== slug);
        return { read: read ? [...others, slug] : others, current: p?.current ?? null };
      });
      return { before };
    },
    onError: (_error, _change, context) => {
      client.setQueryData(query.queryKey, context?.before);
    },
    onSuccess: (progress) => {
      client.setQueryData(query.queryKey, progress);
    },
  });
  const { mutate } = mark;

  const read = useMemo(() => {
    if (store.in === 'browser') return new Set(Object.keys(local.read));
    if (store.in === 'server') return new Set(server.data?.read ?? []);
    return new Set<string>();
  }, [store.in, local, server.data]);
  const isRead = useCallback((slug: string) => read.has(slug), [read]);
  const setRead = useCallback(
    (slug: string, value: boolean) => {
      if (store.in === 'browser') setLessonRead(slug, value);
      else if (store.in === 'server') mutate({ slug, read: value });
    },
    [store.in, mutate],
  );
  const canSave = store.in === 'browser' || (store.in === 'server' && !store.readOnly);
  return { isRead, setRead, canSave, saveError: mark.error };
}

/**
 * Tells the server which lesson someone signed in to a class has open (the roster's `lesson`),
 * once per lesson page. Nothing to tell for a progress kept in the browser; a failure only
 * leaves the roster a lesson behind, so it is not shown.
 */
export function useReportCurrentLesson(slug: string, store: ProgressStore): void {
  const client = useQueryClient();
  const personId = store.in === 'server' && !store.readOnly ? store.personId : null;
  useEffect(() => {
    if (personId === null) return;
    setCurrentLesson(slug)
      .then((progress) => client.setQueryData(serverProgressQuery(personId).queryKey, progress))
      .catch(() => undefined);
  }, [slug, personId, client]);
}
