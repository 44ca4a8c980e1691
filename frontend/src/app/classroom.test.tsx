import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { aLesson, anExperiment, healthyHealth, lessons, servers } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { nobodyMe, studentMe } from '@/testing/people-fixtures';

import { App } from './app';

// The app composes the people feature with the others: the header says who you are, and a
// lesson's Run widgets send someone who has not joined the class to the join form.
function serveClassroom(me: unknown) {
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
    'POST /api/classes/join': studentMe,
  });
}

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
});
