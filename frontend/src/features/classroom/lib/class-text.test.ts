import { zQueueEntry } from '@/lib/api/generated/zod.gen';
import { i18next } from '@/lib/i18n';
import { aPresentation, aQueuedRun } from '@/testing/classroom-fixtures';

import {
  endsText,
  formatWait,
  isCancellable,
  presentationText,
  queueStatusText,
  runSubject,
  timeUntil,
} from './class-text';
import { presentationSchema } from './classroom-schemas';

const queued = (overrides: Record<string, unknown> = {}) => zQueueEntry.parse(aQueuedRun(overrides));
/** The classroom's t() in the language of the moment (English unless a test switches). */
const t = i18next.getFixedT(null, 'classroom');

describe('queue sentences', () => {
  it('says where a waiting run is, or that it is held', () => {
    expect(queueStatusText(queued(), t)).toBe('queued, #2, about 40 s');
    expect(queueStatusText(queued({ wait_s: 300 }), t)).toBe('queued, #2, about 5 min');
    expect(queueStatusText(queued({ position: null, wait_s: null }), t)).toBe('queued');
    expect(queueStatusText(queued({ position: null, wait_s: null, held: true }), t)).toBe('held (runs are paused)');
    expect(queueStatusText(queued({ status: 'running' }), t)).toBe('running');
    expect(queueStatusText(queued({ status: 'cancelled' }), t)).toBe('cancelled');
    expect(formatWait(0.2, t)).toBe('about 1 s');
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
    expect(timeUntil('2026-11-24T10:45:00Z', now, t)).toBe('in 45 min');
    expect(timeUntil('2026-11-24T12:05:00Z', now, t)).toBe('in 2 h 5 min');
    expect(timeUntil('2026-11-24T12:00:00Z', now, t)).toBe('in 2 h');
    expect(timeUntil('2026-11-24T09:00:00Z', now, t)).toBe('any moment now');
  });

  it('says when a class ends or ended, and nothing when it runs until ended', () => {
    expect(endsText({ ends_at: '2026-11-24T10:45:00Z', ended_at: null }, now, t)).toMatch(/^Ends at .+ \(in 45 min\)$/);
    expect(endsText({ ends_at: '2026-11-24T10:45:00Z', ended_at: '2026-11-24T09:59:00Z' }, now, t)).toMatch(/^Ended at /);
    expect(endsText({ ends_at: null, ended_at: null }, now, t)).toBeNull();
  });

  it('says what is presented, and whose it is', () => {
    const ada = { id: 'p-ada', name: 'Ada' };
    expect(presentationText(presentationSchema.parse(aPresentation()), t, 'en')).toBe('epoll at 100 connections, in The C10K problem');
    expect(presentationText(presentationSchema.parse(aPresentation({ spotlight: ada })), t, 'en')).toBe(
      'epoll at 100 connections, in The C10K problem (spotlight: Ada)',
    );
    const lessonAlone = { experiment: null, title: 'The C10K problem', titles: { en: 'The C10K problem' }, run_id: null };
    expect(presentationText(presentationSchema.parse(aPresentation({ ...lessonAlone, spotlight: ada })), t, 'en')).toBe(
      'The C10K problem (spotlight: Ada)',
    );
    expect(presentationText(presentationSchema.parse(aPresentation(lessonAlone)), t, 'en')).toBe('The C10K problem');
  });
});

describe('in Chinese', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  beforeEach(async () => {
    await i18next.changeLanguage('zh');
  });

  it('says where a run waits, and how long until the class ends', () => {
    expect(queueStatusText(queued(), t)).toBe('排队中，第 2 位，约 40 秒');
    expect(queueStatusText(queued({ wait_s: 300 }), t)).toBe('排队中，第 2 位，约 5 分钟');
    expect(queueStatusText(queued({ held: true }), t)).toBe('暂缓（运行已暂停）');
    expect(queueStatusText(queued({ status: 'done' }), t)).toBe('已完成');
    expect(timeUntil('2026-11-24T12:05:00Z', now, t)).toBe('2 小时 5 分钟后');
    expect(endsText({ ends_at: '2026-11-24T10:45:00Z', ended_at: null }, now, t)).toMatch(/^将于 .+ 结束（45 分钟后）$/);
  });

  it('says what is presented, titled in Chinese from the stream’s titles', () => {
    expect(presentationText(presentationSchema.parse(aPresentation({ spotlight: { id: 'p-ada', name: 'Ada' } })), t, 'zh')).toBe(
      'epoll：100 个连接（C10K 问题；聚焦：Ada）',
    );
    // A title the stream has in no other language (an older API's) is shown as it came.
    const englishOnly = { titles: {}, lesson_titles: {} };
    expect(presentationText(presentationSchema.parse(aPresentation(englishOnly)), t, 'zh')).toBe(
      'epoll at 100 connections（The C10K problem）',
    );
  });
});
