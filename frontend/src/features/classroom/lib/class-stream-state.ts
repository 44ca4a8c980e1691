/**
 * What the class stream has said so far, as a pure reducer (the hook feeds it; tests drive it
 * directly). The stream has no ids: a reconnect starts over with `class` and `presentation`,
 * then replays the presented run from its first event, so a `presentation` always starts the
 * shown run's frames (and sweep) afresh.
 */
import type { RunEventFrame, Sweep, Class } from '@/lib/api-schemas';

import type { ClassStreamEvent, Live, Presentation } from './classroom-schemas';

export interface ClassStreamState {
  klass: Class | null;
  presentation: Presentation | null;
  /** The presented run's events so far, in order, each seq once. */
  runFrames: RunEventFrame[];
  /** The presented sweep's table, as it last came. */
  sweep: Sweep | null;
  /** The timer, the newest announcements and the questions revealed; null before it comes. */
  live: Live | null;
  /** The class has ended: the stream is closed for good. */
  ended: boolean;
  /** The stream is open (EventSource reconnects by itself while this is false). */
  connected: boolean;
}

/** Besides the stream's own events: it opened, it dropped, or it is about another class now. */
export type ClassStreamAction = ClassStreamEvent | { type: 'open' } | { type: 'lost' } | { type: 'reset' };

export const initialClassStreamState: ClassStreamState = {
  klass: null,
  presentation: null,
  runFrames: [],
  sweep: null,
  live: null,
  ended: false,
  connected: false,
};

export function classStreamReducer(state: ClassStreamState, action: ClassStreamAction): ClassStreamState {
  switch (action.type) {
    case 'reset':
      return initialClassStreamState;
    case 'open':
      return state.connected ? state : { ...state, connected: true };
    case 'lost':
      return state.connected ? { ...state, connected: false } : state;
    case 'class':
      return { ...state, klass: action.klass };
    case 'presentation':
      return { ...state, presentation: action.presentation, runFrames: [], sweep: null };
    case 'run_event': {
      // Only the run being shown; a late event of the previous one is dropped.
      if (action.runId !== state.presentation?.run_id) return state;
      const last = state.runFrames.at(-1);
      // Seqs rise by one per run: at or below the last one seen is a replay.
      if (last && action.frame.seq <= last.seq) return state;
      return { ...state, runFrames: [...state.runFrames, action.frame] };
    }
    case 'sweep':
      if (action.sweep.id !== state.presentation?.sweep_id) return state;
      return { ...state, sweep: action.sweep };
    case 'live':
      return { ...state, live: action.live };
    case 'ended':
      return { ...state, ended: true, connected: false, presentation: null, runFrames: [], sweep: null };
  }
}
