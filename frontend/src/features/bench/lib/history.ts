/** A history entry in words, and the lab link that reopens it. Pure, for the page and tests. */
import type { TFunction } from 'i18next';

import type { HistoryEdit, HistoryEntry, RunField, RunRequest, SweepRequest } from '@/lib/api-schemas';
import { formatInt } from '@/lib/format';

import { editName, editRunnable, verdictWords, type ExerciseTitle } from './edit-names';
import { labUrl, setupFromRequest, type LabSetup } from './lab-setup';
import { isVariantEntry, VARIANT_ENTRY } from './round-comparison';
import { variedName, versus } from './words';

/** What naming an entry needs beyond the entry: the reader's language and the exercises' titles. */
export interface EntryWords {
  lng?: string;
  exerciseTitle?: ExerciseTitle;
}

const bySlug: ExerciseTitle = (slug) => slug;

/** The edit an entry names `server` by: a sweep's `variant:<id>`, a run's edited server. */
function editOf(entry: HistoryEntry, server: string): HistoryEdit | undefined {
  return entry.edits?.find((e) => e.entry === server);
}

/** A server of the entry in words: its id, or the learner's edit of one. */
function serverName(entry: HistoryEntry, server: string, words: EntryWords, t: TFunction<'bench'>): string {
  const edit = editOf(entry, server);
  if (edit) return editName(edit, words.exerciseTitle ?? bySlug, t, words.lng);
  if (isVariantEntry(server)) return t('edits.gone');
  return editGone(entry) ? t('edits.goneOf', { server }) : server;
}

/** A run of an edit the API no longer keeps: it names the edit's id but no edit. */
function editGone(entry: HistoryEntry): boolean {
  return entry.kind === 'run' && typeof entry.request.variant === 'string' && !entry.edits?.length;
}

/** "c-epoll, 100 connections", "c-epoll vs c-poll over connections 10–1000", "c-epoll vs your
 *  edit of c-epoll (saved 14:43), 20 connections", or for an answer's check run "exercise:
 *  Edge-triggered epoll — failed: it did not compile". */
export function describeEntry(entry: HistoryEntry, t: TFunction<'bench'>, words: EntryWords = {}): string {
  const answered = entry.verdict ? entry.edits?.find((e) => e.exercise)?.exercise : null;
  if (entry.verdict && answered) {
    const exercise = (words.exerciseTitle ?? bySlug)(answered);
    return t('history.entry.answer', { exercise, outcome: verdictWords(entry.verdict, t) });
  }
  const servers = versus(entry.servers.map((s) => serverName(entry, s, words, t)), t);
  if (entry.kind === 'sweep' && entry.vary && entry.vary !== 'round' && entry.values && entry.values.length > 1) {
    const low = Math.min(...entry.values);
    const high = Math.max(...entry.values);
    return t('history.entry.over', { servers, field: variedName(entry.vary, t), low, high });
  }
  const connections = entry.kind === 'sweep' && entry.vary !== 'round' ? entry.values?.[0] : entry.request.connections;
  return typeof connections === 'number'
    ? t('history.entry.connections', { servers, count: connections, connections: formatInt(connections) })
    : servers;
}

/** The entry's run fields without what names the server (a run's `variant` becomes its entry). */
function settingsOf(entry: HistoryEntry): Omit<RunRequest, 'server'> {
  const { variant: _variant, ...rest } = entry.request;
  // The history keeps a request's run fields as a plain record (a sweep's: its base).
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null));
}

/** The entry as the lab setup that runs it again. A run of an edit runs that edit
 *  (`variant:<id>`, as a sweep names one); a comparison in rounds opens as its servers side by
 *  side at its connection count, which the lab can then sweep. */
export function entrySetup(entry: HistoryEntry): LabSetup {
  const settings = settingsOf(entry);
  const knobs = entry.knobs ?? {};
  if (entry.kind === 'run') {
    const edit = entry.edits?.find((e) => e.entry === entry.servers[0]);
    const server = edit ? `${VARIANT_ENTRY}${edit.variant}` : (entry.servers[0] ?? '');
    return setupFromRequest({ ...settings, server, knobs });
  }
  const rounds = entry.vary === 'round';
  const sweep: SweepRequest = {
    servers: entry.servers,
    vary: rounds ? 'connections' : (entry.vary ?? 'connections'),
    values: rounds ? [] : (entry.values ?? []),
    base: { ...settings, knobs },
    server_knobs: entry.server_knobs ?? null,
  };
  return setupFromRequest(sweep);
}

/** Why the lab cannot run the entry again, as the edit to open instead; null when it can. An
 *  edit that failed to compile or its check would fail the same way, and one no longer kept
 *  cannot run at all: those open at their own page (where the learner can fix them), or not. */
export function unrunnableEdit(entry: HistoryEntry): { edit: HistoryEdit | null } | null {
  const gone = editGone(entry) || entry.servers.some((s) => isVariantEntry(s) && !editOf(entry, s));
  if (gone) return { edit: null };
  const failed = (entry.edits ?? []).find((e) => !editRunnable(e));
  return failed ? { edit: failed } : null;
}

/** `/lab?…` for the entry, with only what differs from the defaults when they are known; null
 *  when the lab could not run it (see unrunnableEdit). */
export function entryLabUrl(entry: HistoryEntry, fields: RunField[] = []): string | null {
  return unrunnableEdit(entry) ? null : labUrl(entrySetup(entry), fields);
}
