import { initialRunState } from '../lib/run-state';

import { RENDER_INTERVAL_MS, renderIntervalFor } from './use-run';

describe('renderIntervalFor', () => {
  it('holds a measured run’s new figures on the machine it measures, and draws them as they come elsewhere', () => {
    const drawn = { ...initialRunState, runId: 'r1', phase: 'measure' as const };
    const next = { ...drawn, progress: [{ t: 1, phase: 'measure' as const, qps: 1, errors: 0, p50: 1, p90: 1, p99: 1, p999: 1, max: 1 }] };
    expect(renderIntervalFor(next, drawn, true)).toBe(Number.POSITIVE_INFINITY);
    expect(renderIntervalFor(next, drawn, false)).toBe(RENDER_INTERVAL_MS);
    // A new phase is drawn at once either way.
    expect(renderIntervalFor({ ...next, phase: 'done' }, drawn, true)).toBe(RENDER_INTERVAL_MS);
  });
});
