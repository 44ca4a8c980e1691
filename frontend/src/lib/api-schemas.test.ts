import { doneData, healthyHealth, lessons, progress, servers } from '@/testing/fixtures';

import {
  healthSchema,
  lessonListSchema,
  lessonSchema,
  parseRunEventFrame,
  runCreatedSchema,
  runSchema,
  serverListSchema,
  sourceSchema,
  sweepSchema,
} from './api-schemas';

describe('HTTP response schemas', () => {
  it('accepts the health answer and rejects a wrong shape', () => {
    expect(healthSchema.parse(healthyHealth).ready).toBe(true);
    const unreachable = { status: 'ok', docker: { reachable: false, version: null, error: 'no socket' }, images: {}, ready: false };
    expect(healthSchema.parse(unreachable).docker.error).toBe('no socket');
    expect(healthSchema.safeParse({ status: 'ok', docker: {}, images: {}, ready: true }).success).toBe(false);
  });

  it('parses lessons, filling prev/next as null', () => {
    expect(lessonListSchema.parse(lessons)).toHaveLength(2);
    const lesson = lessonSchema.parse({ ...lessons[0], markdown: '# Hi', prev: null, next: { slug: '02-blocking', title: 'Two' } });
    expect(lesson.prev).toBeNull();
    expect(lesson.next?.slug).toBe('02-blocking');
    expect(lessonSchema.safeParse({ ...lessons[0] }).success).toBe(false); // markdown missing
  });

  it('reads a lesson’s experiment keys, and none from a backend that lists none', () => {
    const base = { ...lessons[0], markdown: '# Hi', prev: null, next: null };
    expect(lessonSchema.parse(base).experiments).toEqual([]);
    const listed = lessonSchema.parse({
      ...base,
      experiments: [
        { key: '3f2a9c0b1d4e', source: 'server: c-epoll', title: null },
        { key: '0123456789ab', source: 'server: c-poll\ntitle: poll' },
      ],
    });
    expect(listed.experiments.map((e) => [e.key, e.title])).toEqual([
      ['3f2a9c0b1d4e', null],
      ['0123456789ab', null],
    ]);
  });

  it('reads a run held by a paused class, and a sweep table with or without its request', () => {
    expect(runCreatedSchema.parse({ id: 'r1', status: 'queued', position: null, wait_s: null, held: true }).held).toBe(true);
    expect(runCreatedSchema.parse({ id: 'r1', status: 'queued', position: 1 }).held).toBeUndefined();
    const table = { id: 's1', finished: false, points: [], memory_per_connection: {} };
    expect(sweepSchema.parse(table).request).toBeUndefined();
    const request = { servers: ['c-poll'], vary: 'connections', values: [10, 100], base: { duration_s: 3 } };
    expect(sweepSchema.parse({ ...table, request }).request).toEqual(request);
    // An unreadable request is as good as none: the table still draws.
    expect(sweepSchema.parse({ ...table, request: { vary: 'threads' } }).request).toBeNull();
  });

  it('parses the catalog and a source excerpt', () => {
    expect(serverListSchema.parse(servers)[0]?.knobs).toHaveLength(2);
    const source = { path: 'servers/c/epoll.c', language: 'c', start_line: 10, end_line: 12, text: 'a\nb\nc' };
    expect(sourceSchema.parse(source).start_line).toBe(10);
    expect(sourceSchema.safeParse({ ...source, start_line: 0 }).success).toBe(false);
  });

  it('normalises run ids to strings', () => {
    expect(runCreatedSchema.parse({ id: 42, status: 'queued', position: 1 }).id).toBe('42');
    expect(runCreatedSchema.safeParse({ id: 'x', status: 'weird', position: 1 }).success).toBe(false);
    const run = runSchema.parse({
      id: 'r1', server: 'c-epoll', status: 'done', request: {}, created_at: '2025-01-01T00:00:00Z',
      started_at: null, finished_at: null, position: null, result: doneData, error: null,
    });
    expect(run.status).toBe('done');
  });
});

describe('parseRunEventFrame', () => {
  it.each([
    ['queued', { position: 2 }],
    ['started', { server: 'c-epoll', server_cpus: '0', loadgen_cpus: '1' }],
    ['progress', progress(1, 'warmup')],
    ['server_stats', { t_s: 1, cpu_percent: 55.5, memory_bytes: 1048576, pids: 1 }],
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
    expect(!wrong.ok && wrong.error).toMatch(/does not match the contract/);
  });

  it('decodes a queued event of a held run: no place, no wait', () => {
    const held = parseRunEventFrame('queued', '4', JSON.stringify({ position: null, wait_s: null, held: true }));
    expect(held.ok && held.frame.type === 'queued' && held.frame.data).toEqual({ position: null, wait_s: null, held: true });
  });

  it('defaults optional parts of failed and done events', () => {
    const failed = parseRunEventFrame('failed', '9', '{"reason":"boom"}');
    expect(failed.ok && failed.frame.type === 'failed' && failed.frame.data.logs).toEqual([]);
  });
});
