import { useCallback, useEffect, useRef, useState } from 'react';

import { parseSweepEventFrame, SWEEP_EVENT_TYPES, type Sweep, type SweepEventFrame, type SweepPoint } from '@/lib/api-schemas';

import { cancelSweep, createSweep, getSweep, sweepEventsUrl } from '../api/sweeps';
import type { ExperimentOrigin, SweepRequest } from '../lib/experiment-block';
import type { RunState } from '../lib/run-state';
import { nextPoint } from '../lib/series';

import { useFollowRunId } from './use-run';

export type SweepPhase = 'idle' | 'submitting' | 'running' | 'done' | 'failed' | 'cancelled';

export interface SweepState {
  phase: SweepPhase;
  sweepId: string | null;
  /** Points in arrival order; a point arrives once its run has finished (or was skipped). */
  points: SweepPoint[];
  /** The newest table: asked for while it runs (each point's status), the final one at the end. */
  table: Sweep | null;
  error: string | null;
}

/** While a series runs its table is asked for again this often (and whenever a point arrives),
 *  for how many of its points are running or still queued. */
export const SWEEP_TABLE_REFRESH_MS = 5_000;

const initial: SweepState = { phase: 'idle', sweepId: null, points: [], table: null, error: null };

/** A checked frame applied to the state: a point appended, or the final table. */
function applyFrame(state: SweepState, frame: SweepEventFrame): SweepState {
  switch (frame.type) {
    case 'point':
      // Points are numbered from 1 in order: one at or below those held is a replay.
      return frame.seq <= state.points.length ? state : { ...state, points: [...state.points, frame.data] };
    case 'done':
      return { ...state, phase: state.phase === 'cancelled' ? 'cancelled' : 'done', table: frame.data, points: frame.data.points };
  }
}

/**
 * A series' state fed by its SSE stream of `point` events (one per finished run, in order)
 * and the final `done` table, shared by the series widget and a permalink. EventSource
 * reconnects by itself with Last-Event-ID, which the stream honours.
 */
function useSweepStream() {
  const [state, setState] = useState<SweepState>(initial);
  const source = useRef<EventSource | null>(null);

  const close = useCallback(() => {
    source.current?.close();
    source.current = null;
  }, []);
  useEffect(() => close, [close]);

  const listen = useCallback(
    (sweepId: string) => {
      close();
      const events = new EventSource(sweepEventsUrl(sweepId));
      source.current = events;
      // Each frame checked as a run's are (parseSweepEventFrame); a bad point is said, not
      // drawn, and a bad final table ends the series as failed.
      for (const type of SWEEP_EVENT_TYPES) {
        events.addEventListener(type, (event) => {
          const { lastEventId, data } = event as MessageEvent<string>;
          const parsed = parseSweepEventFrame(type, lastEventId, data);
          if (type === 'done') close(); // the stream ends here
          setState((s) => {
            if (parsed.ok) return applyFrame(s, parsed.frame);
            return type === 'done' ? { ...s, phase: 'failed', error: parsed.error } : { ...s, error: parsed.error };
          });
        });
      }
    },
    [close],
  );

  // While it runs: the table now, after each point, and every few seconds between.
  const { phase, sweepId } = state;
  const arrived = state.points.length;
  useEffect(() => {
    if (phase !== 'running' || sweepId === null) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      getSweep(sweepId, controller.signal)
        .then((table) => {
          setState((s) => (s.phase === 'running' && s.sweepId === sweepId ? { ...s, table } : s));
        })
        .catch(() => undefined) // the stream still brings the points; the counts can wait
        .finally(() => {
          if (!controller.signal.aborted) timer = setTimeout(refresh, SWEEP_TABLE_REFRESH_MS);
        });
    };
    refresh();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [phase, sweepId, arrived]);

  return { state, setState, listen, close };
}

/**
 * A series experiment: POST /api/sweeps, then its stream (useSweepStream). `origin` (the
 * lesson and block, when known) goes with the series for the class board.
 */
export function useSweep(request: SweepRequest, origin?: ExperimentOrigin) {
  const { state, setState, listen, close } = useSweepStream();
  // The last series that finished, kept while a newer one runs: a cancel leaves it on show.
  const [previous, setPrevious] = useState<SweepState | null>(null);

  const start = useCallback(async (): Promise<string | null> => {
    if (state.phase === 'done') setPrevious(state);
    setState({ ...initial, phase: 'submitting' });
    try {
      const created = await createSweep(request, origin);
      setState((s) => ({ ...s, phase: 'running', sweepId: created.id }));
      listen(created.id);
      return created.id;
    } catch (error) {
      setState((s) => ({ ...s, phase: 'failed', error: error instanceof Error ? error.message : String(error) }));
      return null;
    }
  }, [listen, request, origin, state, setState]);

  const cancel = useCallback(async () => {
    const id = state.sweepId;
    if (!id) return;
    try {
      const table = await cancelSweep(id);
      setState((s) => ({ ...s, phase: 'cancelled', table, points: table.points }));
      close();
    } catch (error) {
      setState((s) => ({ ...s, error: error instanceof Error ? error.message : String(error) }));
    }
  }, [close, state.sweepId, setState]);

  return { state, previous, start, cancel };
}

/**
 * A series known by its id (a permalink), from GET /api/sweeps/{id}'s answer: a finished one is
 * that table; one still running follows its stream from the first point, as the widget does.
 */
export function useFollowSweep(sweep: Sweep | undefined): SweepState {
  const { state, setState, listen, close } = useSweepStream();
  useEffect(() => {
    if (!sweep) return;
    if (sweep.finished) {
      setState({ ...initial, phase: 'done', sweepId: sweep.id, table: sweep, points: sweep.points });
      return;
    }
    setState({ ...initial, phase: 'running', sweepId: sweep.id, table: sweep });
    listen(sweep.id);
    return close;
  }, [sweep, setState, listen, close]);
  return state;
}

/**
 * The point a running series measures next, followed on its own run's stream: its place in the
 * queue and its phase at once, its warm-up figures as they come and its measured ones when its
 * measurement ends (held while measured, as a run's are: drawing disturbs the run it shows).
 * Null while nothing runs, and until the table has said which run is next.
 */
export function useNextPoint(state: SweepState): { point: SweepPoint; run: RunState } | null {
  const point = state.phase === 'running' ? nextPoint(state.points, state.table) : null;
  const run = useFollowRunId(point?.run_id ?? null);
  return point !== null && run.runId === point.run_id ? { point, run } : null;
}
