import { runGateFor, type RunGate } from '../lib/run-gate';

import { useMe } from './use-me';

/** Null when this browser may run benchmarks; otherwise what to show instead of Run. */
export function useRunGate(): RunGate | null {
  return runGateFor(useMe().data);
}
