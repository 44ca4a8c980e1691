/**
 * The sentences the class page shows about a class and its runs: pure, so tests can pin them
 * without rendering. Each takes the `classroom` namespace's t(), so it speaks the interface's
 * language.
 */
import type { TFunction } from 'i18next';

import type { Class } from '@/lib/api-schemas';
import { formatClock } from '@/lib/dates';
import { i18next, type Language } from '@/lib/i18n';
import type { Presentation, QueuedRun } from './classroom-schemas';

export type ClassroomT = TFunction<'classroom'>;

/** "about 40 s", "about 3 min": the server's estimate, rounded as a person would say it. */
export function formatWait(seconds: number, t: ClassroomT): string {
  if (seconds < 90) return t('when.aboutSeconds', { seconds: Math.max(1, Math.round(seconds)) });
  return t('when.aboutMinutes', { minutes: Math.round(seconds / 60) });
}

/** A run's state in the queue table; a held run is waiting only because the class is paused. */
export function queueStatusText(run: QueuedRun, t: ClassroomT): string {
  if (run.status !== 'queued') return t(`queue.status.${run.status}`);
  if (run.held) return t('queue.held');
  const place = run.position === null ? t('queue.status.queued') : t('queue.position', { position: run.position });
  return run.wait_s === null ? place : t('queue.withWait', { place, wait: formatWait(run.wait_s, t) });
}

/** Still waiting or running: the instructor may cancel it. */
export function isCancellable(run: QueuedRun): boolean {
  return run.status === 'queued' || run.status === 'running';
}

/** "lesson/experiment" → its title, as the board lists them. */
export function experimentKey(lesson: string, experiment: string): string {
  return `${lesson}/${experiment}`;
}

export interface Titles {
  /** slug → lesson title */
  lessons: ReadonlyMap<string, string>;
  /** experimentKey(lesson, key) → the experiment's title */
  experiments: ReadonlyMap<string, string>;
}

/** What a run was for: "Lesson · Experiment", falling back to slugs and keys, or "—" for a free run. */
export function runSubject(run: Pick<QueuedRun, 'lesson' | 'experiment'>, titles: Titles): string {
  if (run.lesson === null) return '—';
  const lesson = titles.lessons.get(run.lesson) ?? run.lesson;
  if (run.experiment === null) return lesson;
  const experiment = titles.experiments.get(experimentKey(run.lesson, run.experiment)) ?? run.experiment;
  return `${lesson} · ${experiment}`;
}

function clock(iso: string): string {
  return formatClock(new Date(iso), i18next.resolvedLanguage);
}

/** How long until `iso`, in words: "in 45 min", "in 2 h 5 min", "any moment now". */
export function timeUntil(iso: string, now: number, t: ClassroomT): string {
  const minutes = Math.round((Date.parse(iso) - now) / 60_000);
  if (minutes <= 0) return t('when.anyMoment');
  if (minutes < 60) return t('when.inMinutes', { minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? t('when.inHours', { hours }) : t('when.inHoursMinutes', { hours, minutes: rest });
}

/** "Ended at 14:05", "Ends at 15:30 (in 45 min)", or null for a class that runs until it is ended. */
export function endsText(klass: Pick<Class, 'ends_at' | 'ended_at'>, now: number, t: ClassroomT): string | null {
  if (klass.ended_at !== null) return t('when.endedAt', { time: clock(klass.ended_at) });
  if (klass.ends_at != null) return t('when.endsAt', { time: clock(klass.ends_at), until: timeUntil(klass.ends_at, now, t) });
  return null;
}

/** What is presented, titled in the reader's language (the class stream carries every
 *  language's titles, since one stream reaches readers of each). */
export function presentedTitles(presentation: Presentation, language: Language): { title: string; lesson: string } {
  return {
    title: presentation.titles[language] ?? presentation.title,
    lesson: presentation.lesson_titles[language] ?? presentation.lesson_title,
  };
}

/** What is presented, in one line: "Echo at 100 connections, in The C10K problem (spotlight: Ada)". */
export function presentationText(presentation: Presentation, t: ClassroomT, language: Language): string {
  const { title, lesson } = presentedTitles(presentation, language);
  const { spotlight } = presentation;
  // A lesson presented alone is titled by the lesson: said once.
  if (!presentation.experiment) return spotlight ? t('presentation.lessonSpotlight', { lesson, name: spotlight.name }) : lesson;
  return spotlight
    ? t('presentation.experimentSpotlight', { title, lesson, name: spotlight.name })
    : t('presentation.experiment', { title, lesson });
}

/** "4:05 left", or the time is up: the whole minutes and seconds, as a wall clock shows them. */
export function timeLeft(endsAt: string, now: number): { left: string; over: boolean } {
  const seconds = Math.max(0, Math.ceil((Date.parse(endsAt) - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  return { left: `${minutes}:${String(seconds % 60).padStart(2, '0')}`, over: seconds === 0 };
}
