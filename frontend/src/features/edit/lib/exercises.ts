/**
 * The exercises as the pages list them: grouped by lesson in the course's order, and where
 * this browser's learner stands with each, from their own variants (GET /api/variants): an
 * answer carries its exercise and its verdict.
 */
import type { ExerciseSummary } from '@/hooks/use-exercises';
import type { LessonSummary } from '@/lib/api-schemas';

import type { Variant } from '../api/variants';

export type ExerciseStatus = 'not-tried' | 'tried' | 'passed';

export const EXERCISE_STATUS_WORDS: Record<ExerciseStatus, string> = {
  'not-tried': 'not tried',
  tried: 'tried',
  passed: 'passed',
};

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
export function verdictWord(variant: Variant): string {
  switch (variant.verdict?.status) {
    case 'passed':
      return 'passed';
    case 'failed':
      return 'failed';
    default:
      return 'being judged';
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
export function lessonName(group: Pick<LessonExercises, 'lesson' | 'about'>): string {
  return group.about ? `Lesson ${group.about.order}: ${group.about.title}` : group.lesson;
}
