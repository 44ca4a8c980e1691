import { useCallback, useEffect, useRef, useState } from 'react';

import { sweepPointSchema, sweepSchema, type Sweep, type SweepPoint } from '@/lib/api-schemas';

import { cancelSweep, createSweep, sweepEventsUrl } from '../api/sweeps';
import type { SweepRequest } from '../lib/experiment-block';

export type SweepPhase = 'idle' | 'submitting' | 'running' | 'done' | 'failed' | 'cancelled';

export interface SweepState {
  phase: SweepPhase;
  sweepId: string | null;
  /** Points in arrival order; a point arrives once its run has finished (or was skipped). */
  points: SweepPoint[];
  table: Sweep | null;
  error: string | null;
}

const initial: SweepState = { phase: 'idle', sweepId: null, points: [], table: null, error: null };

function parseData(event: Event): unknown {
  return JSON.parse((event as MessageEvent<string>).data) as unknown;
}

/**
 * A series experiment: POST /api/sweeps, then its SSE stream of `point` events (one per
 * finished run, in order) and the final `done` table. EventSource reconnects by itself
 * with Last-Event-ID, which the stream honours.
 */
export function useSweep(request: SweepRequest) {
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
      events.addEventListener('point', (event) => {
        const point = sweepPointSchema.safeParse(parseData(event));
        if (!point.success) return;
        setState((s) => ({ ...s, points: [...s.points, point.data] }));
      });
      events.addEventListener('done', (event) => {
        const table = sweepSchema.safeParse(parseData(event));
        close();
        setState((s) =>
          table.success
            ? { ...s, phase: s.phase === 'cancelled' ? 'cancelled' : 'done', table: table.data, points: table.data.points }
            : { ...s, phase: 'failed', error: 'the final table could not be read' },
        );
      });
    },
    [close],
  );

  const start = useCallback(async () => {
    setState({ ...initial, phase: 'submitting' });
    try {
      const created = await createSweep(request);
      setState((s) => ({ ...s, phase: 'running', sweepId: created.id }));
      listen(created.id);
    } catch (error) {
      setState((s) => ({ ...s, phase: 'failed', error: error instanceof Error ? error.message : String(error) }));
    }
  }, [listen, request]);

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
  }, [close, state.sweepId]);

  return { state, start, cancel };
}
