import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { formatDateTime, toInputValue } from '@/lib/dates';
import { i18next } from '@/lib/i18n';
import { mockFetch, reply, type MockRequest } from '@/testing/mock-fetch';
import { aClass, instructorMe, nobodyMe, soloMe, studentMe } from '@/testing/people-fixtures';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { ClassesPage } from './classes-page';

describe('ClassesPage', () => {
  it('shows each class with its join code large and its students (the link is on its page)', async () => {
    mockFetch({
      'GET /api/auth/me': instructorMe,
      'GET /api/classes': [aClass(), aClass({ id: 'c-0', name: 'Old one', join_code: 'AAAA-BBBB', ended_at: '2026-11-01T10:00:00Z', students: 1 })],
    });
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    const cards = await screen.findAllByTestId('class-card');
    expect(cards).toHaveLength(2);
    const [open, ended] = cards as [HTMLElement, HTMLElement];
    expect(within(open).getByRole('heading', { name: 'Systems, Tuesday' })).toBeInTheDocument();
    expect(within(open).getByTestId('join-code')).toHaveTextContent('K7QX-M4TP');
    // The join link is the class page's: the server builds it on the address the room reaches.
    expect(within(open).queryByTestId('join-link')).not.toBeInTheDocument();
    expect(within(open).getByTestId('class-students')).toHaveTextContent('3 students');
    expect(within(open).getByRole('link', { name: 'Open class' })).toHaveAttribute('href', '/classes/c-1');
    // An ended class's code admits nobody: not shown.
    expect(within(ended).queryByTestId('join-code')).not.toBeInTheDocument();
    expect(within(ended).getByText(/Ended 2026-11-01/)).toBeInTheDocument();
    expect(within(ended).getByTestId('class-students')).toHaveTextContent('1 student');
  });

  it('speaks Chinese: the card and its student count', async () => {
    mockFetch({ 'GET /api/auth/me': instructorMe, 'GET /api/classes': [aClass()] });
    await act(() => i18next.changeLanguage('zh'));
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    expect(await screen.findByRole('heading', { name: '我的班级', level: 1 })).toBeInTheDocument();
    const card = await screen.findByTestId('class-card');
    expect(within(card).getByTestId('class-students')).toHaveTextContent('3 名学生');
    expect(within(card).getByText('加入码')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: '进入班级' })).toHaveAttribute('href', '/classes/c-1');
    expect(screen.getByRole('button', { name: '创建班级' })).toBeInTheDocument();
  });

  it('ends a class after asking, and then hides its code', async () => {
    const { calls } = mockFetch({
      'GET /api/auth/me': instructorMe,
      'GET /api/classes': [aClass()],
      'POST /api/classes/c-1/end': aClass({ ended_at: '2026-11-25T10:00:00Z' }),
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    const card = await screen.findByTestId('class-card');
    await userEvent.click(within(card).getByRole('button', { name: 'End class' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(calls.some((c) => c.method === 'POST')).toBe(false); // declined: nothing sent
    await userEvent.click(within(card).getByRole('button', { name: 'End class' }));
    await waitFor(() => {
      expect(within(screen.getByTestId('class-card')).getByText(/Ended 2026-11-25/)).toBeInTheDocument();
    });
    expect(within(screen.getByTestId('class-card')).queryByTestId('join-code')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/classes/c-1/end']);
  });

  it('creates a class and shows it first', async () => {
    const classes: unknown[] = [];
    const { calls } = mockFetch({
      'GET /api/auth/me': instructorMe,
      'GET /api/classes': () => ({ body: classes }),
      'POST /api/classes': () => {
        classes.unshift(aClass({ id: 'c-2', name: 'Networks', join_code: 'QQQQ-2345', students: 0 }));
        return { status: 201, body: classes[0] };
      },
    });
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    expect(await screen.findByTestId('no-classes')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New class'), 'Networks');
    await userEvent.click(screen.getByRole('button', { name: 'Create class' }));
    const card = await screen.findByTestId('class-card');
    expect(within(card).getByTestId('join-code')).toHaveTextContent('QQQQ-2345');
    expect(within(card).getByTestId('class-students')).toHaveTextContent('0 students');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Networks', results_days: 7 });
    expect(screen.getByLabelText('New class')).toHaveValue('');
  });

  it('sends an optional end time as ISO 8601 with the browser’s offset', async () => {
    const { calls } = mockFetch({
      'GET /api/auth/me': instructorMe,
      'GET /api/classes': [],
      'POST /api/classes': reply(201, aClass({ id: 'c-3', name: 'Until noon', ends_at: '2030-01-01T12:00:00+00:00' })),
    });
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    await userEvent.type(await screen.findByLabelText('New class'), 'Until noon');
    // Tomorrow at this time, as the browser's picker would give it (no zone).
    const tomorrow = toInputValue(new Date(Date.now() + 24 * 3600 * 1000));
    fireEvent.change(screen.getByLabelText('Ends at (optional)'), { target: { value: tomorrow } });
    // Students keep their results for three days after it ends, not the week it offers.
    expect(screen.getByLabelText('Students keep their results for (days)')).toHaveValue(7);
    fireEvent.change(screen.getByLabelText('Students keep their results for (days)'), { target: { value: '3' } });
    await userEvent.click(screen.getByRole('button', { name: 'Create class' }));
    await waitFor(() => {
      expect(calls.some((c) => c.method === 'POST')).toBe(true);
    });
    const body = calls.find((c) => c.method === 'POST')?.body as { name: string; ends_at: string; results_days: number };
    expect(body.name).toBe('Until noon');
    expect(body.results_days).toBe(3);
    expect(body.ends_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(body.ends_at)).toBe(new Date(tomorrow).getTime());
    await waitFor(() => {
      expect(screen.getByLabelText('Ends at (optional)')).toHaveValue('');
    });
  });

  it('shows the server’s sentence when a class cannot be created', async () => {
    mockFetch({
      'GET /api/auth/me': instructorMe,
      'GET /api/classes': [],
      // The API names the end time it refused, as it was sent: its clock has the last word.
      'POST /api/classes': ({ body }: MockRequest) => ({
        status: 422,
        body: problem('end-time-passed', { ends_at: (body as { ends_at: string }).ends_at }),
      }),
    });
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    await userEvent.type(await screen.findByLabelText('New class'), 'Networks');
    const soon = new Date(Date.now() + 60_000);
    fireEvent.change(screen.getByLabelText('Ends at (optional)'), { target: { value: toInputValue(soon) } });
    await userEvent.click(screen.getByRole('button', { name: 'Create class' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `The end time ${formatDateTime(soon, 'en')} has passed; give a time in the future, or none.`,
    );
  });

  it('tells a student, and nobody, that the classes are the instructor’s', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': studentMe });
    const { unmount } = renderWithProviders(<ClassesPage />, { route: '/classes' });
    expect(await screen.findByTestId('classes-not-instructor')).toHaveTextContent(
      'Only an instructor sees the classes here; you are Ada, a student in Systems, Tuesday.',
    );
    expect(calls.some((c) => c.path === '/api/classes')).toBe(false);
    unmount();

    mockFetch({ 'GET /api/auth/me': nobodyMe });
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    const note = await screen.findByTestId('classes-not-instructor');
    expect(note).toHaveTextContent('nobody is logged in');
    expect(within(note).getByRole('link', { name: 'Instructor login' })).toHaveAttribute('href', '/login');
    expect(within(note).getByRole('link', { name: 'Join a class' })).toHaveAttribute('href', '/join');
  });

  it('explains that solo mode has no classes', async () => {
    mockFetch({ 'GET /api/auth/me': soloMe });
    renderWithProviders(<ClassesPage />, { route: '/classes' });
    expect(await screen.findByTestId('solo-mode')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByTestId('class-list')).not.toBeInTheDocument();
    });
  });
});
