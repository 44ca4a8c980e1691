import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { aClassroomClass, anAssignment, aGradeCell } from '@/testing/classroom-fixtures';
import { aLesson, anExperiment, healthyHealth, lessons, servers } from '@/testing/fixtures';
import { mockFetch, type MockRequest } from '@/testing/mock-fetch';
import { instructorMe, joinedAda, nobodyMe, studentMe } from '@/testing/people-fixtures';

import { App } from './app';

// The app composes the people feature with the others: the header says who you are, and a
// lesson's Run widgets send someone who has not joined the class to the join form.
function serveClassroom(me: unknown, extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/auth/me': me,
    'GET /api/health': healthyHealth,
    'GET /api/servers': servers,
    'GET /api/lessons': lessons,
    'GET /api/lessons/01-c10k-problem': {
      ...aLesson([anExperiment('server: c-epoll\nconnections: 50', { run: { server: 'c-epoll', connections: 50 } })]),
      markdown: '## Try it\n\n```experiment\nserver: c-epoll\nconnections: 50\n```\n',
      prev: null,
      next: null,
    },
    'POST /api/classes/join': joinedAda,
    'GET /api/classes/c-1': aClassroomClass({ join_code: '' }),
    'GET /api/classes/c-1/assignments': [],
    ...extra,
  });
}

const askedForAssignments = (calls: MockRequest[]) => calls.some((c) => c.path.endsWith('/assignments'));

describe('App in classroom mode', () => {
  afterEach(() => {
    window.location.hash = '';
  });

  it('offers joining instead of Run to someone who has not joined, and Run once they have', async () => {
    serveClassroom(nobodyMe);
    window.location.hash = '#/lessons/01-c10k-problem';
    render(<App />);
    const widget = await screen.findByRole('region', { name: /Experiment/ });
    const gate = await within(widget).findByTestId('run-gate');
    expect(within(gate).getByRole('link', { name: 'Join your class to run benchmarks' })).toHaveAttribute('href', '#/join');
    expect(within(widget).queryByRole('button', { name: 'Run benchmark' })).not.toBeInTheDocument();

    await userEvent.click(within(gate).getByRole('link'));
    await userEvent.type(await screen.findByLabelText('Join code'), 'K7QX-M4TP');
    await userEvent.type(screen.getByLabelText('Your name'), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Join' }));
    // The personal code, shown once, then the course.
    expect(await screen.findByTestId('personal-code')).toHaveTextContent('H4KD-P7WQ');
    await userEvent.click(screen.getByRole('button', { name: 'Continue to the course' }));

    // The course home, with the header naming the student.
    expect(await screen.findByTestId('account-name')).toHaveTextContent('Ada · Systems, Tuesday');
    expect(await screen.findByRole('link', { name: 'The C10K problem' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'The C10K problem' }));
    const joined = await screen.findByRole('region', { name: /Experiment/ });
    expect(await within(joined).findByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();
    expect(within(joined).queryByTestId('run-gate')).not.toBeInTheDocument();
  });

  it('shows the ways in, in the header, when nobody is logged in', async () => {
    serveClassroom(nobodyMe);
    render(<App />);
    const nav = await screen.findByTestId('account-nav');
    expect(within(nav).getByRole('link', { name: 'Join a class' })).toHaveAttribute('href', '#/join');
    expect(within(nav).getByRole('link', { name: 'Instructor login' })).toHaveAttribute('href', '#/login');
  });

  it('shows a student the exercises assigned to their class on the course home', async () => {
    serveClassroom(studentMe, {
      'GET /api/classes/c-1/assignments': [anAssignment({ mine: aGradeCell({ status: 'failed', attempts: 1 }) })],
    });
    render(<App />);
    const assigned = await screen.findByRole('region', { name: 'Your assigned exercises' });
    const link = within(assigned).getByRole('link', { name: 'Edge-triggered epoll: read until EAGAIN' });
    expect(link).toHaveAttribute('href', '#/exercises/et-drain');
    expect(within(assigned).getByTestId('assigned-exercise')).toHaveTextContent('✗ failed · 1 attempt');
  });

  it('shows no assigned exercises to an instructor, nor to someone not in a class', async () => {
    for (const me of [instructorMe, nobodyMe]) {
      const { calls } = serveClassroom(me);
      const { unmount } = render(<App />);
      expect(await screen.findByTestId('lesson-list')).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Your assigned exercises' })).not.toBeInTheDocument();
      expect(askedForAssignments(calls)).toBe(false);
      unmount();
    }
  });
});
