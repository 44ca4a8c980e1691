import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';

import { aLesson, anExperiment, healthyHealth, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { aClass, instructorMe, soloMe, studentMe } from '@/testing/people-fixtures';
import { renderWithProviders } from '@/testing/render';

import { LessonRoute } from './lesson';

const block = 'server: c-epoll\nconnections: 50';
const KEY = '3f2a9c0b1d4e';
const notes = '<details class="speaker-notes"><summary>Speaker notes</summary>\n\nAsk the room first.\n\n</details>';

function serveLesson(me: unknown, overrides: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/auth/me': me,
    'GET /api/health': healthyHealth,
    'GET /api/servers': servers,
    'GET /api/lessons/01-c10k-problem': {
      ...aLesson([anExperiment(block, { key: KEY, run: { server: 'c-epoll', connections: 50 } })]),
      markdown: `## Try it\n\n\`\`\`experiment\n${block}\n\`\`\`\n\n${notes}\n`,
    },
    'GET /api/progress': { read: [], current: null },
    'PUT /api/progress/current': { read: [], current: '01-c10k-problem' },
    'POST /api/runs': reply(202, { id: 'r7', status: 'queued', position: 1, wait_s: 0 }),
    ...overrides,
  });
}

function renderLesson() {
  return renderWithProviders(
    <Routes>
      <Route path="/lessons/:slug" element={<LessonRoute />} />
    </Routes>,
    { route: '/lessons/01-c10k-problem' },
  );
}

const presentation = (extra: Record<string, unknown> = {}) => ({
  lesson: '01-c10k-problem',
  lesson_title: 'The C10K problem',
  experiment: KEY,
  title: 'Benchmark epoll, level-triggered',
  titles: { en: 'Benchmark epoll, level-triggered' },
  lesson_titles: { en: 'The C10K problem' },
  run_id: null,
  sweep_id: null,
  spotlight: null,
  started_at: '2026-11-24T10:00:00+00:00',
  ...extra,
});

describe('LessonRoute for an instructor with a class', () => {
  const classes = [
    aClass({ id: 'c-old', created_at: '2026-11-17T09:00:00+00:00' }),
    aClass({ id: 'c-ended', created_at: '2026-11-24T08:00:00+00:00', ended_at: '2026-11-24T08:30:00+00:00' }),
    aClass({ id: 'c-now', created_at: '2026-11-24T09:00:00+00:00' }),
  ];

  it('presents a block to the newest class not ended, follows its new run, and stops', async () => {
    const { calls } = serveLesson(instructorMe, {
      'GET /api/classes': classes,
      'GET /api/classes/c-now/presentation': () => ({ body: null }),
      'PUT /api/classes/c-now/presentation': (request: { body: unknown }) => ({ body: presentation(request.body as Record<string, unknown>) }),
      'DELETE /api/classes/c-now/presentation': reply(204, null),
    });
    renderLesson();
    const widget = await screen.findByRole('region', { name: /Experiment/ });
    await userEvent.click(await within(widget).findByRole('button', { name: 'Present' }));

    expect(await within(widget).findByTestId('presenting')).toHaveTextContent('Presenting · Stop');
    const put = calls.find((c) => c.method === 'PUT' && c.path.endsWith('/presentation'));
    expect(put?.path).toBe('/api/classes/c-now/presentation');
    expect(put?.body).toEqual({ lesson: '01-c10k-problem', experiment: KEY });

    // Run on the presented block: the class is shown the new run.
    const run = within(widget).getByRole('button', { name: 'Run benchmark' });
    await waitFor(() => {
      expect(run).toBeEnabled();
    });
    await userEvent.click(run);
    await waitFor(() => {
      expect(calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/presentation')).at(-1)?.body).toMatchObject({ run_id: 'r7' });
    });
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/runs')?.body).toMatchObject({
      lesson: '01-c10k-problem',
      experiment: KEY,
    });

    await userEvent.click(within(widget).getByRole('button', { name: 'Stop presenting' }));
    expect(await within(widget).findByRole('button', { name: 'Present' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/classes/c-now/presentation')).toBe(true);
  });

  it('shows a block presented before the page opened as presenting', async () => {
    serveLesson(instructorMe, {
      'GET /api/classes': classes,
      'GET /api/classes/c-now/presentation': presentation({ run_id: 'r1' }),
    });
    renderLesson();
    const widget = await screen.findByRole('region', { name: /Experiment/ });
    expect(await within(widget).findByTestId('presenting')).toHaveTextContent('Presenting · Stop');
  });

  it('offers no Present when every class has ended', async () => {
    const { calls } = serveLesson(instructorMe, { 'GET /api/classes': [classes[1]] });
    renderLesson();
    const widget = await screen.findByRole('region', { name: /Experiment/ });
    await waitFor(() => {
      expect(calls.some((c) => c.path === '/api/classes')).toBe(true);
    });
    expect(await within(widget).findByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();
    expect(within(widget).queryByRole('button', { name: 'Present' })).not.toBeInTheDocument();
  });

  it('keeps progress on the server and shows the speaker notes’ switch', async () => {
    const { calls } = serveLesson(instructorMe, { 'GET /api/classes': classes });
    renderLesson();
    expect(await screen.findByRole('switch', { name: 'Instructor mode' })).toBeInTheDocument();
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/progress/current')?.body).toEqual({ lesson: '01-c10k-problem' });
    });
  });
});

describe('LessonRoute for a student', () => {
  it('offers no Present and no instructor switch, and reports the lesson open on the server', async () => {
    const { calls } = serveLesson(studentMe);
    renderLesson();
    const widget = await screen.findByRole('region', { name: /Experiment/ });
    expect(await within(widget).findByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();
    expect(within(widget).queryByRole('button', { name: 'Present' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Instructor mode' })).not.toBeInTheDocument();
    await waitFor(() => {
      expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/progress/current')).toBe(true);
    });
    expect(calls.some((c) => c.path === '/api/classes')).toBe(false);
  });
});

describe('LessonRoute in solo mode', () => {
  it('keeps progress in the browser and shows no instructor switch to a learner on their own', async () => {
    const { calls } = serveLesson(soloMe);
    renderLesson();
    const widget = await screen.findByRole('region', { name: /Experiment/ });
    expect(screen.queryByRole('switch', { name: 'Instructor mode' })).not.toBeInTheDocument();
    expect(await within(widget).findByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();
    expect(within(widget).queryByRole('button', { name: 'Present' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read this lesson' }));
    expect(window.localStorage.getItem('c10klab:progress:v1')).toContain('01-c10k-problem');
    expect(calls.some((c) => c.path.startsWith('/api/progress'))).toBe(false);
  });
});
