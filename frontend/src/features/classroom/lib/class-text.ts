/**
 * The sentences the class page shows about a class and its runs: pure, so tests can pin them
 * without rendering.
 */
import type { ClassroomClass, Presentation, QueuedRun } from './classroom-schemas';

/** "about 40 s", "about 3 min": the server's estimate, rounded as a person would say it. */
export function formatWait(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  return `about ${Math.round(seconds / 60)} min`;
}

/** A run's state in the queue table; a held run is waiting only because the class is paused. */
export function queueStatusText(run: QueuedRun): string {
  if (run.status !== 'queued') return run.status;
  if (run.held) return 'held (runs are paused)';
  const place = run.position === null ? 'queued' : `queued, #${run.position}`;
  return run.wait_s === null ? place : `${place}, ${formatWait(run.wait_s)}`;
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
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** How long until `iso`, in words: "in 45 min", "in 2 h 5 min", "any moment now". */
export function timeUntil(iso: string, now: number): string {
  const minutes = Math.round((Date.parse(iso) - now) / 60_000);
  if (minutes <= 0) return 'any moment now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `in ${hours} h` : `in ${hours} h ${rest} min`;
}

/** "Ended at 14:05", "Ends at 15:30 (in 45 min)", or null for a class that runs until it is ended. */
export function endsText(klass: Pick<ClassroomClass, 'ends_at' | 'ended_at'>, now: number): string | null {
  if (klass.ended_at !== null) return `Ended at ${clock(klass.ended_at)}`;
  if (klass.ends_at != null) return `Ends at ${clock(klass.ends_at)} (${timeUntil(klass.ends_at, now)})`;
  return null;
}

/**
 * The address a student opens to join with `code`: this page's origin and path, then the join
 * route, which pre-fills the code (`/#/join?code=…`, the people feature's join page). Written
 * again here because features do not import each other.
 */
export function joinLink(code: string, location: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return `${location.origin}${location.pathname}#/join?code=${encodeURIComponent(code)}`;
}

/** What is presented, in one line: "Echo at 100 connections, in The C10K problem (spotlight: Ada)". */
export function presentationText(presentation: Presentation): string {
  const whose = presentation.spotlight ? ` (spotlight: ${presentation.spotlight.name})` : '';
  // A lesson presented alone is titled by the lesson: said once.
  return presentation.experiment ? `${presentation.title}, in ${presentation.lesson_title}${whose}` : `${presentation.lesson_title}${whose}`;
}
