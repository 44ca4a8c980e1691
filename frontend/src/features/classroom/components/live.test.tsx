import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';

import { i18next } from '@/lib/i18n';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { liveSchema } from '../lib/classroom-schemas';

import { ClassQuestion } from './class-question';
import { LivePanel } from './live-panel';
import { LiveStrip } from './live-strip';

const inFiveMinutes = () => new Date(Date.now() + 5 * 60_000 - 500).toISOString();
const live = (overrides: Record<string, unknown> = {}) =>
  liveSchema.parse({ timer: null, announcements: [], revealed: [], ...overrides });
const hand = {
  lesson: '01-c10k-problem',
  lesson_title: 'The C10K problem',
  experiment: null,
  experiment_title: null,
  raised_at: '2026-11-24T14:05:00+00:00',
};

describe('LiveStrip (a student in a live class)', () => {
  it('counts the timer down, shows the newest announcement, and raises a hand where the student is', async () => {
    const { calls } = mockFetch({
      'GET /api/classes/c-1/hand': null,
      'PUT /api/classes/c-1/hand': hand,
      'DELETE /api/classes/c-1/hand': () => ({ status: 204, body: null }),
    });
    const shown = live({
      timer: { label: 'Exercise 2', started_at: new Date().toISOString(), ends_at: inFiveMinutes() },
      announcements: [{ id: 'a2', text: 'Try 1,000 connections', at: '2026-11-24T14:10:00+00:00' }],
    });
    renderWithProviders(
      <Routes>
        <Route path="/lessons/:slug" element={<LiveStrip classId="c-1" live={shown} />} />
      </Routes>,
      { route: '/lessons/01-c10k-problem' },
    );
    expect(screen.getByTestId('class-timer')).toHaveTextContent(/^Exercise 2: [45]:\d\d left$/);
    expect(screen.getByTestId('announcement')).toHaveTextContent(/\d\d:\d\d Try 1,000 connections/);
    await userEvent.click(await screen.findByRole('button', { name: "I'm stuck" }));
    expect(await screen.findByTestId('hand-up')).toHaveTextContent('Your hand is up');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ lesson: '01-c10k-problem' });
    await userEvent.click(screen.getByRole('button', { name: 'Lower my hand' }));
    expect(await screen.findByRole('button', { name: "I'm stuck" })).toBeInTheDocument();
    // Dismissed, the announcement leaves this tab.
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss the announcement' }));
    expect(screen.queryByTestId('announcement')).not.toBeInTheDocument();
  });

  it('says when the time is up, in Chinese too', async () => {
    mockFetch({ 'GET /api/classes/c-1/hand': null });
    await act(() => i18next.changeLanguage('zh'));
    const over = live({ timer: { label: '', started_at: '2026-11-24T14:00:00+00:00', ends_at: '2026-11-24T14:05:00+00:00' } });
    renderWithProviders(<LiveStrip classId="c-1" live={over} />);
    expect(screen.getByTestId('class-timer')).toHaveTextContent('时间到');
    expect(await screen.findByRole('button', { name: '我卡住了' })).toBeInTheDocument();
  });
});

describe('LivePanel (the instructor)', () => {
  it('starts a timer and sends an announcement', async () => {
    const { calls } = mockFetch({
      'PUT /api/classes/c-1/timer': { label: 'Quiz', started_at: '2026-11-24T14:00:00+00:00', ends_at: '2026-11-24T14:07:30+00:00' },
      'POST /api/classes/c-1/announcements': { id: 'a1', text: 'Pause now', at: '2026-11-24T14:00:00+00:00' },
      'GET /api/classes/c-1/live': live(),
    });
    renderWithProviders(<LivePanel classId="c-1" live={live()} />);
    expect(screen.getByText('No timer is running.')).toBeInTheDocument();
    const timer = screen.getByRole('form', { name: 'Timer' });
    const minutes = within(timer).getByLabelText('Minutes');
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '7.5');
    await userEvent.type(within(timer).getByLabelText('For (optional)'), 'Quiz');
    await userEvent.click(within(timer).getByRole('button', { name: 'Start' }));
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ minutes: 7.5, label: 'Quiz' });
    });
    const announce = screen.getByRole('form', { name: 'Announce to the class' });
    await userEvent.type(within(announce).getByLabelText('Announcement'), 'Pause now');
    await userEvent.click(within(announce).getByRole('button', { name: 'Send' }));
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ text: 'Pause now' });
    });
    expect(within(announce).getByLabelText('Announcement')).toHaveValue('');
  });
});

describe('ClassQuestion', () => {
  const questions = (mine: string | null, answers: unknown[] = [], revealed = false) => ({
    lesson: '01-c10k-problem',
    questions: [{ question: 1, revealed, mine, answers }],
  });

  it('lets a student send an answer while the lesson’s stays hidden', async () => {
    const { calls } = mockFetch({
      'GET /api/classes/c-1/questions/01-c10k-problem': questions(null),
      'PUT /api/classes/c-1/questions/01-c10k-problem/1/answer': questions('glibc, not the kernel'),
    });
    renderWithProviders(<ClassQuestion classId="c-1" lesson="01-c10k-problem" question={1} role="student" />);
    expect(await screen.findByText('The answer is hidden until your instructor reveals it.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Your answer'), 'glibc, not the kernel');
    await userEvent.click(screen.getByRole('button', { name: 'Send my answer' }));
    expect(await screen.findByTestId('answer-sent')).toHaveTextContent('your instructor sees it');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ answer: 'glibc, not the kernel' });
  });

  it('shows the instructor every answer by name, and reveals the lesson’s answer', async () => {
    const given = [{ student_id: 'p-ada', name: 'Ada', answer: 'glibc', at: '2026-11-24T14:00:00+00:00' }];
    const { calls } = mockFetch({
      'GET /api/classes/c-1/questions/01-c10k-problem': questions(null, given),
      'PUT /api/classes/c-1/questions/01-c10k-problem/1/revealed': questions(null, given, true),
    });
    renderWithProviders(<ClassQuestion classId="c-1" lesson="01-c10k-problem" question={1} role="instructor" />);
    expect(await screen.findByTestId('answer-count')).toHaveTextContent('1 answer');
    expect(screen.getByTestId('class-answers')).toHaveTextContent('Ada: glibc');
    await userEvent.click(screen.getByRole('button', { name: 'Reveal the answer to the class' }));
    expect(await screen.findByRole('button', { name: 'Hide the answer again' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT' && c.path.endsWith('/1/revealed'))).toBe(true);
  });
});
