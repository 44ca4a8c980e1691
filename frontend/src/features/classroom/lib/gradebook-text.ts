/**
 * What the gradebook and a student's assigned list say about an assignment and the answers to
 * it: pure, so tests can pin them without rendering. A status is said in a word and a symbol,
 * never by colour alone.
 */
import { formatDateTime } from '@/lib/dates';

import type { ClassroomT } from './class-text';
import type { Assignment, GradeCell, GradeStatus } from './classroom-schemas';

/** Beside the word, for the eye scanning a column; hidden from screen readers, which read the word. */
export const GRADE_MARKS: Record<GradeStatus, string> = {
  passed: '✓',
  failed: '✗',
  pending: '…',
  none: '○',
};

/** "passed", "failed", "being judged", "not tried". */
export function gradeWord(status: GradeStatus, t: ClassroomT): string {
  return t(`grade.status.${status}`);
}

/** "due 25 Nov 2026, 10:08" (in the reader's time zone and language), "was due …" once it has
 *  passed, or "no due time". */
export function dueText(dueAt: string | null, now: number, lng: string | undefined, t: ClassroomT): string {
  if (dueAt === null) return t('assignments.noDue');
  const due = new Date(dueAt);
  if (Number.isNaN(due.getTime())) return t('assignments.due', { when: dueAt });
  const when = formatDateTime(due, lng);
  return due.getTime() > now ? t('assignments.due', { when }) : t('assignments.wasDue', { when });
}

/** A cell for nobody's answers: what a student's own reads as before the API says otherwise. */
export function emptyCell(exercise: string): GradeCell {
  return {
    exercise,
    status: 'none',
    attempts: 0,
    passed_at: null,
    late: false,
    last_attempt_at: null,
    last_variant_id: null,
    failed: [],
  };
}

/** The student's due time has passed and no answer of theirs has passed. */
export function isOverdue(assignment: Pick<Assignment, 'due_at' | 'mine'>, now: number): boolean {
  if (assignment.due_at === null || assignment.mine?.status === 'passed') return false;
  const due = Date.parse(assignment.due_at);
  return !Number.isNaN(due) && due <= now;
}
