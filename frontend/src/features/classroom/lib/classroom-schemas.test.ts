import { classSchema } from '@/lib/api-schemas';
import {
  aClassroomClass,
  aPresentation,
  aQueuedRun,
  board,
  roster,
} from '@/testing/classroom-fixtures';
import { aSweep, progress } from '@/testing/fixtures';

import {
  boardSchema,
  parseClassStreamFrame,
  presentationSchema,
  queueSchema,
  rosterSchema,
} from './classroom-schemas';

describe('classroom schemas', () => {
  it('read a class, with its end time and pause', () => {
    const klass = classSchema.parse(aClassroomClass({ ends_at: '2026-11-24T12:00:00+00:00', paused: true, extra: 1 }));
    expect(klass).toMatchObject({ id: 'c-1', join_code: 'K7QX-M4TP', ends_at: '2026-11-24T12:00:00+00:00', ended_at: null, paused: true });
    // Left out: no planned end.
    const { ends_at: _ends, ...withoutEnd } = aClassroomClass();
    expect(classSchema.parse(withoutEnd).ends_at).toBeUndefined();
  });

  it('read a class without its pause flag as running, and refuse one without its student count', () => {
    const { paused: _paused, ...unpaused } = aClassroomClass();
    expect(classSchema.parse(unpaused).paused).toBe(false);
    expect(classSchema.safeParse(aClassroomClass({ students: 'two' })).success).toBe(false);
  });

  it('read the roster, counting lessons read however they come', () => {
    const parsed = rosterSchema.parse(roster);
    expect(parsed.map((s) => [s.name, s.online, s.lesson, s.lessons_read])).toEqual([
      ['Ada', true, '01-c10k-problem', 1],
      ['Linus', false, null, 0],
    ]);
    expect(rosterSchema.safeParse([{ ...roster[0], lessons_read: ['a', 'b'] }]).success).toBe(false);
    expect(rosterSchema.safeParse([{ ...roster[0], online: 'yes' }]).success).toBe(false);
  });

  it('read the queue: held runs, missing figures', () => {
    const queue = queueSchema.parse({
      paused: true,
      runs: [aQueuedRun({ id: 'r-7', position: null, wait_s: null, held: true }), aQueuedRun({ status: 'done', qps: 51_000 })],
    });
    expect(queue.runs[0]).toMatchObject({ id: 'r-7', position: null, held: true });
    expect(queue.runs[1]?.qps).toBe(51_000);
    expect(queueSchema.safeParse({ paused: false, runs: [aQueuedRun({ status: 'lost' })] }).success).toBe(false);
    expect(queueSchema.safeParse({ runs: [] }).success).toBe(false);
  });

  it('read a presentation, spotlighting a student or not', () => {
    expect(presentationSchema.parse(aPresentation()).spotlight).toBeNull();
    expect(presentationSchema.parse(aPresentation({ spotlight: { id: 'p-ada', name: 'Ada' } })).spotlight?.name).toBe('Ada');
    expect(presentationSchema.safeParse(aPresentation({ lesson: undefined })).success).toBe(false);
  });

  it('read the board: runs, series points, spread and the reference', () => {
    const parsed = boardSchema.parse(board);
    const [run, series, untouched] = parsed.experiments;
    expect(run?.reference?.person_id).toBeNull();
    expect(run?.results.map((r) => r.points)).toEqual([[], []]);
    expect(run?.spread.qps).toEqual({ median: 50_000, min: 50_000, max: 50_000, count: 1 });
    expect(series?.results[0]?.points).toHaveLength(4);
    expect(series?.spread.points[0]?.qps.count).toBe(1);
    expect(untouched?.results).toEqual([]);
    expect(boardSchema.safeParse({ experiments: [{ ...board.experiments[0], kind: 'table' }] }).success).toBe(false);
  });
});

describe('parseClassStreamFrame', () => {
  it('decodes each event of the class stream', () => {
    expect(parseClassStreamFrame('class', JSON.stringify(aClassroomClass()))).toMatchObject({ ok: true, event: { type: 'class' } });
    expect(parseClassStreamFrame('presentation', 'null')).toEqual({ ok: true, event: { type: 'presentation', presentation: null } });
    expect(parseClassStreamFrame('sweep', JSON.stringify(aSweep({ finished: false })))).toMatchObject({
      ok: true,
      event: { type: 'sweep', sweep: { id: 's1' } },
    });
    expect(parseClassStreamFrame('ended', '{}')).toEqual({ ok: true, event: { type: 'ended' } });
  });

  it('turns a relayed run event into the frame a run’s own stream would give', () => {
    const parsed = parseClassStreamFrame('run_event', JSON.stringify({ run_id: 'r-9', seq: 3, type: 'progress', data: progress(1, 'measure') }));
    expect(parsed).toEqual({
      ok: true,
      event: { type: 'run_event', runId: 'r-9', frame: { type: 'progress', seq: 3, data: progress(1, 'measure') } },
    });
  });

  it('says what is wrong with a bad frame instead of throwing', () => {
    expect(parseClassStreamFrame('gossip', '{}')).toMatchObject({ ok: false, error: 'unknown class event "gossip"' });
    expect(parseClassStreamFrame('class', '{not json')).toMatchObject({ ok: false, error: 'class event "class" is not JSON' });
    expect(parseClassStreamFrame('class', '{"id":"c-1"}')).toMatchObject({ ok: false });
    expect(parseClassStreamFrame('run_event', JSON.stringify({ run_id: 'r', seq: 1, type: 'rumour', data: {} }))).toMatchObject({
      ok: false,
      // The contract itself names the run's event types: a relayed one it lacks is refused there.
      error: expect.stringContaining('class event "run_event" does not match the contract') as unknown,
    });
    expect(parseClassStreamFrame('run_event', JSON.stringify({ run_id: 'r', seq: 0, type: 'queued', data: { position: 1 } })).ok).toBe(false);
    expect(parseClassStreamFrame('run_event', JSON.stringify({ run_id: 'r', seq: 2, type: 'progress', data: { qps: 'fast' } })).ok).toBe(false);
  });
});
