import { aLesson, aPoint, aSweep, doneData, progress } from '@/testing/fixtures';

import {
  checkRunEvent,
  lessonBaselinesSchema,
  lessonSchema,
  parseRunEventFrame,
  parseSweepEventFrame,
  sweepSchema,
} from './api-schemas';

// The schemas themselves are generated from the backend's models (src/lib/api/generated): these
// tests cover what this file adds, and that what the backend has recorded still parses.

describe('requests read as given', () => {
  it('keeps a lesson block’s run and series as the backend sent them, with no defaults filled in', () => {
    const lesson = lessonSchema.parse(
      aLesson([
        { key: 'aaaaaaaaaaaa', source: 'server: c-epoll', title: null, kind: 'run', run: { server: 'c-epoll' } },
        {
          key: 'bbbbbbbbbbbb',
          source: 'servers: [c-poll]\nvary: connections\nvalues: [10, 100]',
          title: 'poll',
          kind: 'series',
          sweep: { servers: ['c-poll'], vary: 'connections', values: [10, 100], base: { duration_s: 3 } },
        },
        { key: 'cccccccccccc', source: 'server: [', title: null, kind: 'run', error: 'The experiment block is invalid: not valid YAML' },
      ]),
    );
    const [run, series, broken] = lesson.experiments;
    expect(run?.run).toEqual({ server: 'c-epoll' });
    // A varied field among the defaults would make the sweep refused when posted back.
    expect(series?.sweep).toEqual({ servers: ['c-poll'], vary: 'connections', values: [10, 100], base: { duration_s: 3 } });
    expect(broken?.error).toMatch(/not valid YAML/);
  });

  it('keeps a stored sweep’s base as given, and still checks its fields', () => {
    const table = aSweep({ request: { servers: ['c-poll'], vary: 'connections', values: [10], base: { rate: 100 } } });
    expect(sweepSchema.parse(table).request.base).toEqual({ rate: 100 });
    expect(sweepSchema.safeParse({ ...table, request: { ...table.request, base: { rate: 'fast' } } }).success).toBe(false);
  });
});

describe('parseRunEventFrame', () => {
  it.each([
    ['queued', { position: 2 }],
    ['started', { server: 'c-epoll', server_cpus: '0', loadgen_cpus: '1' }],
    ['progress', progress(1, 'warmup')],
    ['server_stats', { t_s: 1, cpu_percent: 55.5, memory_bytes: 1048576, pids: 1 }],
    ['repetition', { repetition: 2, of: 3, t_s: 12 }],
    ['done', doneData],
    ['failed', { reason: 'verify_failed: got 0 bytes', logs: ['line 1'] }],
  ])('decodes a %s event', (type, data) => {
    const result = parseRunEventFrame(type, '7', JSON.stringify(data));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.frame.type).toBe(type);
      expect(result.frame.seq).toBe(7);
    }
  });

  it('rejects unknown types, missing ids, bad JSON and contract violations with a reason', () => {
    const unknown = parseRunEventFrame('bogus', '1', '{}');
    expect(unknown).toEqual({ ok: false, error: 'unknown event type "bogus"' });
    const noId = parseRunEventFrame('queued', '', '{"position":1}');
    expect(noId.ok).toBe(false);
    const notJson = parseRunEventFrame('queued', '1', '{position');
    expect(!notJson.ok && notJson.error).toMatch(/not JSON/);
    const wrong = parseRunEventFrame('progress', '3', JSON.stringify({ t_s: 1, phase: 'cooldown' }));
    expect(!wrong.ok && wrong.error).toMatch(/event "progress" #3 does not match the contract/);
  });

  it('decodes a queued event of a held run, and fills in a failed event’s logs', () => {
    const held = parseRunEventFrame('queued', '4', JSON.stringify({ position: null, wait_s: null, held: true }));
    expect(held.ok && held.frame.type === 'queued' && held.frame.data).toEqual({ position: null, wait_s: null, held: true });
    const failed = parseRunEventFrame('failed', '9', '{"reason":"boom"}');
    expect(failed.ok && failed.frame.type === 'failed' && failed.frame.data.logs).toEqual([]);
  });

  it('checks a relayed run event as the run’s own stream would', () => {
    expect(checkRunEvent('progress', 3, progress(1, 'measure'))).toEqual({
      ok: true,
      frame: { type: 'progress', seq: 3, data: progress(1, 'measure') },
    });
    expect(checkRunEvent('rumour', 1, {})).toEqual({ ok: false, error: 'unknown run event type "rumour"' });
    expect(checkRunEvent('queued', 0, { position: 1 }).ok).toBe(false);
  });
});

describe('parseSweepEventFrame', () => {
  it('decodes a point and the final table, checked like a run’s events', () => {
    const point = parseSweepEventFrame('point', '1', JSON.stringify(aPoint({ server: 'c-poll', value: 10, qps: 900 })));
    expect(point.ok && point.frame).toMatchObject({ type: 'point', seq: 1, data: { server: 'c-poll', qps: 900 } });
    const done = parseSweepEventFrame('done', '5', JSON.stringify(aSweep()));
    expect(done.ok && done.frame.type === 'done' && done.frame.data.id).toBe('s1');
  });

  it('says what is wrong with a bad frame', () => {
    expect(parseSweepEventFrame('progress', '1', '{}')).toEqual({ ok: false, error: 'unknown event type "progress"' });
    expect(parseSweepEventFrame('point', 'x', '{}').ok).toBe(false);
    const wrong = parseSweepEventFrame('point', '2', JSON.stringify({ server: 'c-poll', value: 'ten' }));
    expect(!wrong.ok && wrong.error).toMatch(/event "point" #2 does not match the contract/);
  });
});

/** Every committed recording (`make record-baselines`), read from content/baselines/. */
async function committedBaselines(): Promise<[string, unknown][]> {
  interface Fs {
    readdirSync(path: string): string[];
    readFileSync(path: string, encoding: 'utf8'): string;
  }
  const fs = await vi.importActual<Fs>('node:fs');
  const here = decodeURIComponent(import.meta.url.replace(/^file:\/\//, '').replace(/[^/]*$/, ''));
  const root = `${here}../../../content/baselines/`;
  return fs
    .readdirSync(root)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file, JSON.parse(fs.readFileSync(root + file, 'utf8')) as unknown]);
}

describe('recorded reference results', () => {
  it('parse, the oldest included, as GET /api/lessons/{slug}/baselines sends them', async () => {
    const recordings = await committedBaselines();
    expect(recordings.length).toBeGreaterThan(0);
    for (const [file, recording] of recordings) {
      const parsed = lessonBaselinesSchema.safeParse(recording);
      expect(parsed.success ? file : `${file}: ${parsed.error.message}`).toBe(file);
    }
  });
});
