import { useTranslation } from 'react-i18next';

import { runGateFor, type RunGate } from '../lib/run-gate';

import { useMe } from './use-me';

/** Null when this browser may run benchmarks; otherwise what to show instead of Run (in the
 *  interface's language: the caller re-renders when it changes). */
export function useRunGate(): RunGate | null {
  const { t } = useTranslation('people');
  return runGateFor(useMe().data, t);
}
