/**
 * The exercises as the pages list them: grouped by lesson in the course's order, and where
 * this browser's learner stands with each, from their own variants (GET /api/variants): an
 * answer carries its exercise and its verdict.
 */
import type { ExerciseSummary } from '@/hooks/use-exercises';
import type { LessonSummary } from '@/lib/api-schemas';

import type { Variant } from '../api/variants';

import type { EditT } from './check-state';

export type ExerciseStatus = 'not-tried' | 'tried' | 'passed';

/** Where the learner stands with an exercise, in a word: "not tried", "tried", "passed". */
export function statusWord(status: ExerciseStatus, t: EditT): string {
  switch (status) {
    case 'not-tried':
      return t('exercises.status.notTried');
    case 'tried':
      return t('exercises.status.tried');
    case 'passed':
      return t('exercises.status.passed');
  }
}

/** The answers to `slug`, in the order given (the API lists the newest first). */
export function answersTo(variants: readonly Variant[], slug: string): Variant[] {
  return variants.filter((v) => v.exercise === slug);
}

/** Passed once any answer passed; tried once any was sent (still being judged, or failed). */
export function exerciseStatus(variants: readonly Variant[], slug: string): ExerciseStatus {
  const answers = answersTo(variants, slug);
  if (answers.some((v) => v.verdict?.status === 'passed')) return 'passed';
  return answers.length ? 'tried' : 'not-tried';
}

/** What an answer came to, in a word: "passed", "failed", "being judged". */
export function verdictWord(variant: Variant, t: EditT): string {
  switch (variant.verdict?.status) {
    case 'passed':
      return t('exercises.verdict.passed');
    case 'failed':
      return t('exercises.verdict.failed');
    default:
      return t('exercises.verdict.pending');
  }
}

export interface LessonExercises {
  lesson: string;
  /** The lesson as the course lists it; null when it is not listed (or not loaded). */
  about: Pick<LessonSummary, 'title' | 'order'> | null;
  exercises: ExerciseSummary[];
}

/** The exercises under their lessons, in the course's order (a lesson it does not list last,
 *  by slug); within a lesson, as the API lists them. */
export function groupByLesson(exercises: readonly ExerciseSummary[], lessons: readonly LessonSummary[]): LessonExercises[] {
  const groups = new Map<string, LessonExercises>();
  for (const exercise of exercises) {
    let group = groups.get(exercise.lesson);
    if (!group) {
      const lesson = lessons.find((l) => l.slug === exercise.lesson);
      group = { lesson: exercise.lesson, about: lesson ? { title: lesson.title, order: lesson.order } : null, exercises: [] };
      groups.set(exercise.lesson, group);
    }
    group.exercises.push(exercise);
  }
  const order = (g: LessonExercises) => g.about?.order ?? Number.POSITIVE_INFINITY;
  return [...groups.values()].sort((a, b) => order(a) - order(b) || a.lesson.localeCompare(b.lesson));
}

/** "Lesson 5: epoll", or the lesson's slug when the course's list is not at hand. */
export function lessonName(group: Pick<LessonExercises, 'lesson' | 'about'>, t: EditT): string {
  return group.about ? t('exercises.lessonName', { order: group.about.order, title: group.about.title }) : group.lesson;
}
