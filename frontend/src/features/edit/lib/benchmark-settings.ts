/** The comparison's settings: the form's defaults and what it refuses before sending. */
import type { ComparisonBase } from '../api/variants';

import type { EditT } from './check-state';

/** The series' limit (the API's MAX_ROUNDS); three is the fewest a verdict can be had from. */
export const MAX_ROUNDS = 10;
export const MIN_ROUNDS = 3;
export const DEFAULT_ROUNDS = 8;
/** The width the verdict is planned for: the API runs as many of the rounds as this host's
 *  noise says a QPS interval of about ±5 % needs. */
export const WITHIN = 0.05;
/** Short enough to try a change, long enough to measure: echo, 100 connections, 5 s, 1 s warm-up. */
export const DEFAULT_BASE: ComparisonBase = { protocol: 'echo', connections: 100, duration_s: 5, warmup_s: 1, payload_bytes: 64 };

/** What is wrong with the form, before anything is sent; null when it may be sent. */
export function formProblem(base: ComparisonBase, rounds: number, t: EditT): string | null {
  if (!Number.isInteger(rounds) || rounds < MIN_ROUNDS || rounds > MAX_ROUNDS) return t('benchmark.problem.rounds', { min: MIN_ROUNDS, max: MAX_ROUNDS });
  if (!Number.isInteger(base.connections) || base.connections < 1) return t('benchmark.problem.connections');
  if (!(base.duration_s > 0)) return t('benchmark.problem.duration');
  if (!(base.warmup_s >= 0)) return t('benchmark.problem.warmup');
  if (!Number.isInteger(base.payload_bytes) || base.payload_bytes < 1) return t('benchmark.problem.payload');
  return null;
}
