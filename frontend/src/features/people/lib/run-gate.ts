import type { TFunction } from 'i18next';

import type { Me } from './people-schemas';

/** What the Run widgets show instead of Run when this browser may not run benchmarks. */
export interface RunGate {
  label: string;
  to: string;
}

/** The `people` namespace's t(): the gate's label follows the interface's language. */
export type PeopleT = TFunction<'people'>;

/**
 * In a class every run belongs to someone, so nobody may run before joining (or logging in);
 * solo mode has one implicit person who always may. Null means "may run" — also while `me` is
 * unknown (still loading, or the backend is down): the server has the last word anyway, and
 * the health banner speaks for a backend that is away.
 */
export function runGateFor(me: Me | undefined, t: PeopleT): RunGate | null {
  if (me?.mode === 'classroom' && me.person === null) return { label: t('runGate.join'), to: '/join' };
  // A student of an ended class reads their results and runs nothing more.
  if (me?.person?.read_only_until) return { label: t('runGate.readOnly'), to: '/history' };
  return null;
}
