/** Turning a recorded reference result into what the widgets draw. */
import type { TFunction } from 'i18next';

import type { Baseline } from '@/lib/api-schemas';

import { initialRunState, runReducer, type RunState } from './run-state';
import { listed } from './words';

/** The recorded events of a run (checked with the baseline, as a live stream's are), through
 *  the same state machine as a live run, numbered as the stream numbered them. */
export function replayRun(baseline: Baseline): RunState {
  // The state machine applies events to a run it knows; this one is known by no API call.
  const start: RunState = { ...initialRunState, runId: 'reference', phase: 'starting' };
  const replayed = (baseline.result.events ?? []).reduce<RunState>(
    (state, event, i) => runReducer(state, { type: 'event', frame: { ...event, seq: i + 1 } }),
    start,
  );
  return { ...replayed, runId: null };
}

/** "recorded 2026-11-22 on AMD EPYC, Linux 6.18, server CPU 0 / load generator CPU 1" */
export function describeBaseline(baseline: Baseline, t: TFunction<'bench'>): string {
  const p = baseline.provenance;
  const parts = [t('baseline.recorded', { date: baseline.recorded_at.slice(0, 10) })];
  if (p.cpu_model) parts.push(t('baseline.cpu', { cpu: p.cpu_model }));
  if (p.kernel) parts.push(`Linux ${p.kernel}`);
  parts.push(t('baseline.pinned', { server: p.server_cpus, loadgen: p.loadgen_cpus }));
  return listed(parts, t);
}
