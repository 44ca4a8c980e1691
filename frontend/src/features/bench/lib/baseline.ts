/** Turning a recorded reference result into what the widgets draw. */
import { parseRunEventFrame, RUN_EVENT_TYPES, type Baseline } from '@/lib/api-schemas';

import { initialRunState, runReducer, type RunState } from './run-state';

/** The recorded events of a run, through the same state machine as a live run. */
export function replayRun(baseline: Baseline): RunState {
  const events = (baseline.result.events ?? []).filter((e) => (RUN_EVENT_TYPES as string[]).includes(e.type));
  // The state machine applies events to a run it knows; this one is known by no API call.
  const start: RunState = { ...initialRunState, runId: 'reference', phase: 'starting' };
  const replayed = events.reduce<RunState>((state, event, i) => {
    const parsed = parseRunEventFrame(event.type, String(i + 1), JSON.stringify(event.data));
    return parsed.ok ? runReducer(state, { type: 'event', frame: parsed.frame }) : state;
  }, start);
  return { ...replayed, runId: null };
}

/** "recorded 2026-11-22 on AMD EPYC, Linux 6.18, server CPU 0 / load generator CPU 1" */
export function describeBaseline(baseline: Baseline): string {
  const p = baseline.provenance;
  const text = (key: string) => (typeof p[key] === 'string' ? p[key] : null);
  const parts = [`recorded ${baseline.recorded_at.slice(0, 10)}`];
  if (text('cpu_model')) parts.push(`on ${text('cpu_model')}`);
  if (text('kernel')) parts.push(`Linux ${text('kernel')}`);
  if (text('server_cpus') && text('loadgen_cpus')) {
    parts.push(`server CPU ${text('server_cpus')} / load generator CPU ${text('loadgen_cpus')}`);
  }
  return parts.join(', ');
}
