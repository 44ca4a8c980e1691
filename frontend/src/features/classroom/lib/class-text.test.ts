import { aPresentation, aQueuedRun } from '@/testing/classroom-fixtures';

import {
  endsText,
  formatWait,
  isCancellable,
  joinLink,
  presentationText,
  queueStatusText,
  runSubject,
  timeUntil,
} from './class-text';
import { presentationSchema, queuedRunSchema } from './classroom-schemas';

const queued = (overrides: Record<string, unknown> = {}) => queuedRunSchema.parse(aQueuedRun(overrides));

describe('queue sentences', () => {
  it('says where a waiting run is, or that it is held', () => {
    expect(queueStatusText(queued())).toBe('queued, #2, about 40 s');
    expect(queueStatusText(queued({ wait_s: 300 }))).toBe('queued, #2, about 5 min');
    expect(queueStatusText(queued({ position: null, wait_s: null }))).toBe('queued');
    expect(queueStatusText(queued({ position: null, wait_s: null, held: true }))).toBe('held (runs are paused)');
    expect(queueStatusText(queued({ status: 'running' }))).toBe('running');
    expect(formatWait(0.2)).toBe('about 1 s');
  });

  it('lets waiting and running runs be cancelled, not ended ones', () => {
    expect(['queued', 'running', 'done', 'failed', 'cancelled'].map((status) => isCancellable(queued({ status })))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('names what a run was for by titles, falling back to slugs and keys', () => {
    const titles = {
      lessons: new Map([['01-c10k-problem', 'The C10K problem']]),
      experiments: new Map([['01-c10k-problem/a1b2c3d4e5f6', 'epoll at 100']]),
    };
    expect(runSubject(queued(), titles)).toBe('The C10K problem · epoll at 100');
    expect(runSubject(queued({ experiment: 'ffffffffffff' }), titles)).toBe('The C10K problem · ffffffffffff');
    expect(runSubject(queued({ lesson: '09-x', experiment: null }), titles)).toBe('09-x');
    expect(runSubject(queued({ lesson: null, experiment: null }), titles)).toBe('—');
  });
});

describe('class sentences', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');

  it('says how long until the end', () => {
    expect(timeUntil('2026-11-24T10:45:00Z', now)).toBe('in 45 min');
    expect(timeUntil('2026-11-24T12:05:00Z', now)).toBe('in 2 h 5 min');
    expect(timeUntil('2026-11-24T12:00:00Z', now)).toBe('in 2 h');
    expect(timeUntil('2026-11-24T09:00:00Z', now)).toBe('any moment now');
  });

  it('says when a class ends or ended, and nothing when it runs until ended', () => {
    expect(endsText({ ends_at: '2026-11-24T10:45:00Z', ended_at: null }, now)).toMatch(/^Ends at .+ \(in 45 min\)$/);
    expect(endsText({ ends_at: '2026-11-24T10:45:00Z', ended_at: '2026-11-24T09:59:00Z' }, now)).toMatch(/^Ended at /);
    expect(endsText({ ends_at: null, ended_at: null }, now)).toBeNull();
  });

  it('builds the join link that pre-fills the code', () => {
    expect(joinLink('K7QX-M4TP', { origin: 'http://10.0.0.5:8000', pathname: '/' })).toBe('http://10.0.0.5:8000/#/join?code=K7QX-M4TP');
  });

  it('says what is presented, and whose it is', () => {
    expect(presentationText(presentationSchema.parse(aPresentation()))).toBe('epoll at 100 connections, in The C10K problem');
    expect(
      presentationText(presentationSchema.parse(aPresentation({ experiment: null, title: 'The C10K problem', run_id: null, spotlight: { id: 'p-ada', name: 'Ada' } }))),
    ).toBe('The C10K problem (spotlight: Ada)');
  });
});
