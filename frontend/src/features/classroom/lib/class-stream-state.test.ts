import { type RunEventFrame, classSchema } from '@/lib/api-schemas';
import { aClassroomClass, aPresentation } from '@/testing/classroom-fixtures';
import { aSweep, progress } from '@/testing/fixtures';

import { classStreamReducer, initialClassStreamState, type ClassStreamAction, type ClassStreamState } from './class-stream-state';
import { presentationSchema } from './classroom-schemas';

const presentation = presentationSchema.parse(aPresentation());
const frame = (seq: number): RunEventFrame => ({ type: 'progress', seq, data: progress(seq, 'measure') });
const runEvent = (seq: number, runId = 'r-9'): ClassStreamAction => ({ type: 'run_event', runId, frame: frame(seq) });

function apply(actions: ClassStreamAction[], state: ClassStreamState = initialClassStreamState) {
  return actions.reduce(classStreamReducer, state);
}

describe('classStreamReducer', () => {
  it('keeps the class and the presented run’s frames in order, each seq once', () => {
    const state = apply([
      { type: 'open' },
      { type: 'class', klass: classSchema.parse(aClassroomClass()) },
      { type: 'presentation', presentation },
      runEvent(1),
      runEvent(2),
      runEvent(2),
      runEvent(1),
      runEvent(3),
    ]);
    expect(state.connected).toBe(true);
    expect(state.klass?.name).toBe('Systems, Tuesday');
    expect(state.runFrames.map((f) => f.seq)).toEqual([1, 2, 3]);
  });

  it('starts the frames afresh on every presentation (a new one, or the same after a reconnect)', () => {
    const before = apply([{ type: 'presentation', presentation }, runEvent(1), runEvent(2)]);
    const again = apply([{ type: 'lost' }, { type: 'presentation', presentation }, runEvent(1)], before);
    expect(again.runFrames.map((f) => f.seq)).toEqual([1]);
    const other = apply([{ type: 'presentation', presentation: { ...presentation, run_id: 'r-10' } }, runEvent(5)], again);
    expect(other.runFrames).toEqual([]);
  });

  it('keeps only the presented sweep’s table', () => {
    const sweepShown = presentationSchema.parse(aPresentation({ run_id: null, sweep_id: 's-1' }));
    const table = aSweep({ id: 's-1', finished: false });
    const state = apply([
      { type: 'presentation', presentation: sweepShown },
      { type: 'sweep', sweep: { ...table, id: 's-old' } },
      { type: 'sweep', sweep: table },
    ]);
    expect(state.sweep?.id).toBe('s-1');
    expect(apply([{ type: 'presentation', presentation: null }], state).sweep).toBeNull();
  });

  it('ends: nothing presented, not connected, and a reset forgets the class', () => {
    const state = apply([{ type: 'open' }, { type: 'presentation', presentation }, runEvent(1), { type: 'ended' }]);
    expect(state).toMatchObject({ ended: true, connected: false, presentation: null, runFrames: [] });
    expect(apply([{ type: 'reset' }], state)).toBe(initialClassStreamState);
  });
});
