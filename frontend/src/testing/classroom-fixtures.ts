/** Answers of the classroom endpoints (/api/classes/{id}/…), as the backend sends them. */
import { tuesday } from './people-fixtures';

export function aClassroomClass(overrides: Record<string, unknown> = {}) {
  return {
    ...tuesday,
    join_code: 'K7QX-M4TP',
    created_at: '2026-11-24T09:00:00+00:00',
    ends_at: null,
    ended_at: null,
    results_days: 7,
    results_until: null,
    paused: false,
    students: 2,
    ...overrides,
  };
}

export function aStudent(overrides: Record<string, unknown> = {}) {
  return {
    id: 'p-ada',
    name: 'Ada',
    joined_at: '2026-11-24T09:05:00+00:00',
    online: true,
    last_seen_at: '2026-11-24T09:30:00+00:00',
    lesson: '01-c10k-problem',
    lessons_read: 1,
    runs: 3,
    removed_at: null,
    ...overrides,
  };
}

/** GET /api/classes/{id}/join-links, the instructor's page opened on the host itself. */
export const joinLinks = {
  links: [
    { url: 'http://192.0.2.10:8000/#/join?code=K7QX-M4TP', kind: 'address' },
    { url: 'http://[fd00::2]:8000/#/join?code=K7QX-M4TP', kind: 'address' },
  ],
  opened_on_host: true,
  warning: null,
};

export const roster = [
  aStudent(),
  aStudent({ id: 'p-linus', name: 'Linus', online: false, lesson: null, lessons_read: 0, runs: 0 }),
];

export function aQueuedRun(overrides: Record<string, unknown> = {}) {
  return {
    id: 'r-1',
    owner_id: 'p-ada',
    owner_name: 'Ada',
    server: 'c-epoll',
    status: 'queued',
    position: 2,
    wait_s: 40,
    held: false,
    lesson: '01-c10k-problem',
    experiment: 'a1b2c3d4e5f6',
    sweep_id: null,
    created_at: '2026-11-24T09:31:00+00:00',
    started_at: null,
    finished_at: null,
    qps: null,
    ...overrides,
  };
}

export function aPresentation(overrides: Record<string, unknown> = {}) {
  return {
    lesson: '01-c10k-problem',
    lesson_title: 'The C10K problem',
    experiment: 'a1b2c3d4e5f6',
    title: 'epoll at 100 connections',
    titles: { en: 'epoll at 100 connections', zh: 'epoll：100 个连接' },
    lesson_titles: { en: 'The C10K problem', zh: 'C10K 问题' },
    run_id: 'r-9',
    sweep_id: null,
    spotlight: null,
    started_at: '2026-11-24T09:40:00+00:00',
    ...overrides,
  };
}

export function aResult(overrides: Record<string, unknown> = {}) {
  return {
    person_id: 'p-ada',
    name: 'Ada',
    run_id: 'r-ada',
    sweep_id: null,
    server: 'c-epoll',
    qps: 50_000,
    p50_us: 120,
    p99_us: 900,
    valid: true,
    stable: true,
    finished_at: '2026-11-24T09:35:00+00:00',
    points: null,
    verdict: null,
    ...overrides,
  };
}

const stat = (median: number, min: number, max: number, count: number) => ({ median, min, max, count });

/** A single run's experiment with two students' results and the reference. */
export const runExperiment = {
  lesson: '01-c10k-problem',
  lesson_title: 'The C10K problem',
  experiment: 'a1b2c3d4e5f6',
  title: 'epoll at 100 connections',
  kind: 'run',
  vary: null,
  reference: aResult({ person_id: null, name: 'reference', run_id: null, qps: 60_000, p99_us: 800 }),
  results: [
    aResult({
      verdict: {
        subject: 'r-ada',
        reference: 'reference',
        metric: 'qps',
        call: 'lower',
        change: { estimate: -0.167, low: -0.28, high: -0.04, level: 0.95, count: 1, method: 'host_noise' },
      },
    }),
    aResult({ person_id: 'p-linus', name: 'Linus', run_id: 'r-linus', qps: 30_000, p99_us: 2000, valid: false }),
  ],
  spread: { qps: stat(50_000, 50_000, 50_000, 1), p99_us: stat(900, 900, 900, 1), points: [], left_out: 1 },
  not_run: [{ id: 'p-cy', name: 'Cy' }],
};

function point(server: string, value: number, qps: number, valid = true) {
  return { server, value, qps, p99_us: 1000, valid };
}

/** A series over connections, two servers, one student and the reference. */
export const seriesExperiment = {
  lesson: '02-blocking',
  lesson_title: 'One process per connection',
  experiment: 'ffeeddccbbaa',
  title: 'poll against epoll',
  kind: 'series',
  vary: 'connections',
  reference: aResult({
    person_id: null,
    name: 'reference',
    run_id: null,
    server: null,
    qps: null,
    p50_us: null,
    p99_us: null,
    points: [point('c-poll', 10, 40_000), point('c-poll', 1000, 20_000), point('c-epoll', 10, 41_000), point('c-epoll', 1000, 39_000)],
  }),
  results: [
    aResult({
      run_id: null,
      sweep_id: 's-ada',
      server: null,
      qps: null,
      p50_us: null,
      p99_us: null,
      points: [point('c-poll', 10, 38_000), point('c-poll', 1000, 9_000, false), point('c-epoll', 10, 40_000), point('c-epoll', 1000, 37_000)],
    }),
  ],
  spread: {
    qps: null,
    p99_us: null,
    points: [
      { server: 'c-poll', value: 10, qps: stat(38_000, 38_000, 38_000, 1) },
      { server: 'c-epoll', value: 1000, qps: stat(37_000, 37_000, 37_000, 1) },
    ],
  },
};

/** An experiment nobody has run yet. */
export const untouchedExperiment = {
  ...runExperiment,
  experiment: '000000000000',
  title: 'select at 1000 connections',
  results: [],
  spread: { qps: null, p99_us: null, points: [] },
};

export const board = { experiments: [runExperiment, seriesExperiment, untouchedExperiment] };

// ───────────────────────────── assignments and the gradebook ──────

export function anAssignment(overrides: Record<string, unknown> = {}) {
  return {
    exercise: 'et-drain',
    title: 'Edge-triggered epoll: read until EAGAIN',
    lesson: '05-epoll',
    due_at: null,
    assigned_at: '2026-11-24T09:10:00.000+00:00',
    mine: null,
    ...overrides,
  };
}

export function aGradeCell(overrides: Record<string, unknown> = {}) {
  return {
    exercise: 'et-drain',
    status: 'none',
    attempts: 0,
    passed_at: null,
    late: false,
    last_attempt_at: null,
    last_variant_id: null,
    failed: [],
    ...overrides,
  };
}

const selectValueResult = anAssignment({
  exercise: 'select-value-result',
  title: 'select() rewrites its arguments',
  lesson: '04-select-and-poll',
  due_at: '2026-11-24T10:00:00.000+00:00',
  assigned_at: '2026-11-24T09:11:00.000+00:00',
});

/** Two assignments; Ada passed one late and failed the other, Linus has sent nothing. */
export const gradebook = {
  assignments: [anAssignment(), selectValueResult],
  students: [
    {
      student_id: 'p-ada',
      name: 'Ada',
      passed: 1,
      cells: [
        aGradeCell({
          status: 'failed',
          attempts: 2,
          last_attempt_at: '2026-11-24T09:40:00.000+00:00',
          last_variant_id: 'v-ada-2',
          failed: ['check:echo'],
        }),
        aGradeCell({
          exercise: 'select-value-result',
          status: 'passed',
          attempts: 1,
          passed_at: '2026-11-24T10:20:00.000+00:00',
          late: true,
          last_attempt_at: '2026-11-24T10:20:00.000+00:00',
          last_variant_id: 'v-ada-3',
        }),
      ],
    },
    {
      student_id: 'p-linus',
      name: 'Linus',
      passed: 0,
      cells: [aGradeCell(), aGradeCell({ exercise: 'select-value-result' })],
    },
  ],
};

function anExercise(slug: string, title: string, lesson: string, server: string) {
  return { slug, title, lesson, server, summary: `${title}.` };
}

/** GET /api/exercises: the two assigned above and one more. */
export const exerciseList = [
  anExercise('et-drain', 'Edge-triggered epoll: read until EAGAIN', '05-epoll', 'c-epoll'),
  anExercise('select-value-result', 'select() rewrites its arguments', '04-select-and-poll', 'c-select'),
  anExercise('reap-every-child', 'Reap every child', '02-blocking-servers', 'c-forking'),
];
