/**
 * A learner's saved edit (a variant) in words, wherever the bench shows one: "your edit of
 * c-epoll (saved 14:43)", "your answer to Edge-triggered epoll (saved 14:43)", or a classmate's
 * shared with the class, "Ada's edit of c-epoll (saved 14:43)"; and whether the lab can run
 * it. Pure, for the history, the lab and the tests.
 */
import type { TFunction } from 'i18next';

import type { Ownership, Verdict } from '@/lib/api-schemas';
import { formatClock, formatListDate } from '@/lib/dates';

/** What naming an edit needs: the history's edits and the variants resource both carry it. */
export interface EditFacts {
  server: string;
  exercise?: string | null;
  /** When it was saved (the history's `saved_at`, the variant's `created_at`). */
  saved_at: string;
  check: { status: string; failed?: string | null };
  /** Whose it is, as the API knows the reader: theirs, a classmate's by name, the instructor's. */
  owner: Ownership;
}

/** An exercise's title in the reader's language, by slug (the slug until the list loads). */
export type ExerciseTitle = (slug: string) => string;

/** "14:43" when saved today, else "25 Nov, 14:43": an edit is told apart by when it was saved. */
export function savedWhen(iso: string, lng: string | undefined, now: Date = new Date()): string {
  const saved = new Date(iso);
  if (Number.isNaN(saved.getTime())) return iso;
  return saved.toDateString() === now.toDateString() ? formatClock(saved, lng) : formatListDate(iso, lng);
}

/** Whose an edit reads as: the reader's ("your edit"), someone they know by name ("Ada's
 *  edit"), the class's instructor, or someone else. */
function whose(owner: Ownership): '' | 'By' | 'ByInstructor' | 'BySomeone' {
  if (owner.mine) return '';
  if (owner.name) return 'By';
  return owner.instructor ? 'ByInstructor' : 'BySomeone';
}

/** "your edit of c-epoll (saved 14:43)", or for an answer "your answer to <exercise> (saved …)";
 *  someone else's by whose it is: "Ada's edit of c-epoll (saved …)", "the instructor's …". */
export function editName(edit: EditFacts, exerciseTitle: ExerciseTitle, t: TFunction<'bench'>, lng: string | undefined): string {
  const saved = savedWhen(edit.saved_at, lng);
  const by = whose(edit.owner);
  const owner = edit.owner.name ?? '';
  return edit.exercise
    ? t(`edits.answer${by}`, { exercise: exerciseTitle(edit.exercise), saved, owner })
    : t(`edits.edit${by}`, { server: edit.server, saved, owner });
}

/** Can a run of this edit get past its build and check? Not once its check run failed or was
 *  cancelled: the lab's run would build and check it again, and fail the same way. */
export function editRunnable(edit: EditFacts): boolean {
  return edit.check.status !== 'failed' && edit.check.status !== 'cancelled';
}

/** Why a check run failed, by the judge's name for it (build, check:<name>, run …), in words;
 *  a criterion's name counts among `criteria`. */
const RUN_REASONS = ['build', 'check', 'run', 'starved', 'invalid', 'unstable'] as const;
type RunReason = (typeof RUN_REASONS)[number];

function runReason(name: string): RunReason | null {
  const [kind = ''] = name.split(':');
  return (RUN_REASONS as readonly string[]).includes(kind) ? (kind as RunReason) : null;
}

/** Why an edit's check did not get through, in a few words: "it did not compile". */
export function checkFailure(edit: EditFacts, t: TFunction<'bench'>): string {
  if (edit.check.status === 'cancelled') return t('edits.why.cancelled');
  const reason = runReason(edit.check.failed ?? 'run');
  const said: Exclude<RunReason, 'unstable'> = reason === null || reason === 'unstable' ? 'run' : reason;
  return t(`edits.why.${said}`);
}

/** An answer's verdict in a few words: "passed", "being checked", "failed: it did not compile",
 *  "failed: 2 criteria not met". Criteria are counted, not quoted: their words are the
 *  exercise's, which the history does not load. */
export function verdictWords(verdict: Verdict, t: TFunction<'bench'>): string {
  if (verdict.status === 'passed') return t('edits.verdict.passed');
  if (verdict.status === 'pending') return t('edits.verdict.pending');
  const reasons = verdict.failed.map(runReason);
  const first = reasons.find((r): r is Exclude<RunReason, 'unstable'> => r !== null && r !== 'unstable');
  const criteria = reasons.filter((r) => r === null).length;
  const why = first ? t(`edits.why.${first}`) : criteria ? t('edits.why.criteria', { count: criteria }) : null;
  return why ? t('edits.verdict.failedBecause', { why }) : t('edits.verdict.failed');
}

const VARIANT_PREFIX = 'variant:';

/** Where a lab server's code is edited: a catalog server in the editor, a learner's edit
 *  (`variant:<id>`) at its own page, where it opens to be changed again. */
export function editPath(server: string): string {
  return server.startsWith(VARIANT_PREFIX)
    ? `/variants/${encodeURIComponent(server.slice(VARIANT_PREFIX.length))}`
    : `/edit/${encodeURIComponent(server)}`;
}

/** A server's id as the form shows it: an edit's 32-digit id cut to its first 8, as elsewhere. */
export function shortServerId(server: string): string {
  return server.startsWith(VARIANT_PREFIX) ? `${server.slice(0, VARIANT_PREFIX.length + 8)}…` : server;
}
