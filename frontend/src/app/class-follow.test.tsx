import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { aClassroomClass, aPresentation, aQueuedRun, board, roster } from '@/testing/classroom-fixtures';
import { FakeEventSource } from '@/testing/fake-event-source';
import { aRun, healthyHealth, lessons, servers } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { aClass, instructorMe, studentMe } from '@/testing/people-fixtures';
import { sharedLink } from '@/testing/shared-result';

import { App } from './app';

// The app composes the classroom feature: a student follows their class on every page (banner,
// follow panel drawing what is presented with the bench feature), and an instructor opens a
// class's page from their classes.
function serveClassroom(me: unknown) {
  return mockFetch(classroomRoutes(me));
}

function classroomRoutes(me: unknown): Record<string, unknown> {
  return {
    'GET /api/auth/me': me,
    'GET /api/health': healthyHealth,
    'GET /api/servers': servers,
    'GET /api/lessons': lessons,
    'GET /api/classes': [aClass()],
    'GET /api/classes/c-1': aClassroomClass(),
    'GET /api/classes/c-1/roster': roster,
    'GET /api/classes/c-1/queue': { paused: false, runs: [aQueuedRun()] },
    'GET /api/classes/c-1/board': board,
    'GET /api/runs/r-9': aRun({ id: 'r-9', status: 'queued', result: null }),
  };
}

/** The class stream the app opened (the classroom feature loads lazily, so it comes late). */
function classStream(): Promise<FakeEventSource> {
  return waitFor(() => {
    const found = FakeEventSource.instances.find((es) => es.url === '/api/classes/c-1/events');
    if (!found) throw new Error('no class stream yet');
    return found;
  });
}

describe('App with a class', () => {
  afterEach(() => {
    window.location.hash = '';
  });

  it('follows a student’s class: the banner, and a presented run in the panel', async () => {
    serveClassroom(studentMe);
    render(<App />);
    await screen.findByTestId('account-name');
    // The classroom feature loads lazily, for a student in a class, and opens the class's stream.
    const stream = await classStream();
    act(() => {
      stream.open();
      stream.emit('class', aClassroomClass({ join_code: '', paused: true }), '');
      stream.emit('presentation', aPresentation({ spotlight: { id: 'p-ada', name: 'Ada' } }), '');
      stream.emit('run_event', { run_id: 'r-9', seq: 1, type: 'queued', data: { position: 1, wait_s: 3 } }, '');
    });
    const banner = await screen.findByTestId('class-banner');
    expect(banner).toHaveTextContent('You are in Systems, Tuesday');
    expect(within(banner).getByTestId('class-paused')).toBeInTheDocument();
    const panel = await screen.findByRole('complementary', { name: 'Presented to the class' });
    expect(within(panel).getByTestId('follow-who')).toHaveTextContent('Spotlight: Ada');
    // The bench feature draws the run, loaded when something is presented, shared by its permalink.
    expect(await within(panel).findByTestId('presented-run')).toContainElement(screen.getByTestId('share-result'));
    expect((await sharedLink(userEvent.setup())).shown).toMatch(/#\/runs\/r-9$/);

    await userEvent.click(within(banner).getByRole('link', { name: 'Class board' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Class board' })).toBeInTheDocument();
    expect(await screen.findAllByTestId('board-experiment')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /Spotlight/ })).not.toBeInTheDocument();
  });

  it('asks who this browser is when the class stream is cut, and stops following a removed student', async () => {
    let me: unknown = studentMe;
    const { calls } = mockFetch(classroomRoutes(() => ({ body: me })));
    render(<App />);
    const stream = await classStream();
    act(() => {
      stream.open();
      stream.emit('class', aClassroomClass({ join_code: '' }), '');
    });
    await screen.findByTestId('class-banner');
    const asked = calls.filter((c) => c.path === '/api/auth/me').length;
    // The instructor removed this student: their session is gone, the server closed the stream.
    me = { mode: 'classroom', person: null, class: null };
    act(() => {
      stream.fail(true);
    });
    await waitFor(() => {
      expect(screen.queryByTestId('class-banner')).not.toBeInTheDocument();
    });
    expect(calls.filter((c) => c.path === '/api/auth/me').length).toBeGreaterThan(asked);
  });

  it('sends a student who opens the class page to its board', async () => {
    serveClassroom(studentMe);
    window.location.hash = '#/classes/c-1';
    render(<App />);
    expect(await screen.findByTestId('class-board-page')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/classes/c-1/board');
  });

  it('opens a class’s page from the instructor’s classes, with no student banner', async () => {
    serveClassroom(instructorMe);
    window.location.hash = '#/classes';
    render(<App />);
    const card = await screen.findByTestId('class-card');
    await userEvent.click(within(card).getByRole('link', { name: 'Open class' }));
    expect(await screen.findByTestId('class-page')).toBeInTheDocument();
    expect(await screen.findAllByTestId('roster-row')).toHaveLength(2);
    expect(screen.queryByTestId('class-banner')).not.toBeInTheDocument();
    // One stream: the class page's own.
    expect(FakeEventSource.instances.map((es) => es.url)).toEqual(['/api/classes/c-1/events']);
  });
});
