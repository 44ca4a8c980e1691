/**
 * Where a saved edit stands, from its check run and (for an answer) its verdict: being checked,
 * compiled and checked, did not compile, failed a correctness check, passed or failed its
 * exercise. Pure, for the list of saved edits and its tests.
 */
import type { Variant } from '../api/variants';

export type VariantState = 'checking' | 'checked' | 'buildFailed' | 'checkFailed' | 'runFailed' | 'cancelled' | 'passed' | 'failed';

/** How a state reads at a glance: fine, under way, or in trouble (the badge's colour). */
export type VariantTone = 'ok' | 'pending' | 'bad' | 'neutral';

const TONES: Record<VariantState, VariantTone> = {
  checking: 'pending',
  checked: 'ok',
  passed: 'ok',
  buildFailed: 'bad',
  checkFailed: 'bad',
  runFailed: 'bad',
  failed: 'bad',
  cancelled: 'neutral',
};

/** The state of a failed check run, by the judge's name for why (build, check:<name>, run). */
function failedState(failed: string | null | undefined): VariantState {
  if (failed === 'build') return 'buildFailed';
  return failed?.startsWith('check') ? 'checkFailed' : 'runFailed';
}

export function variantState(variant: Pick<Variant, 'check' | 'exercise' | 'verdict'>): VariantState {
  const { status, failed } = variant.check;
  if (status === 'queued' || status === 'running') return 'checking';
  if (status === 'cancelled') return 'cancelled';
  // An answer that compiled and passed its checks is judged by the exercise; one that did not
  // fails for that, said as plainly as an edit's.
  if (status === 'failed') return failedState(failed);
  if (!variant.exercise) return 'checked';
  if (variant.verdict?.status === 'passed') return 'passed';
  return variant.verdict?.status === 'pending' ? 'checking' : 'failed';
}

export function variantTone(state: VariantState): VariantTone {
  return TONES[state];
}
