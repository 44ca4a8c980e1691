import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { lessonListSchema } from '@/lib/api-schemas';
import { aStudent, roster } from '@/testing/classroom-fixtures';
import { lessons } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { RosterTable } from './roster-table';

const courseLessons = lessonListSchema.parse(lessons);

describe('RosterTable', () => {
  it('shows each student: online or not (in words), the lesson they are on, lessons read, runs', async () => {
    mockFetch({ 'GET /api/classes/c-1/roster': roster });
    renderWithProviders(<RosterTable classId="c-1" live lessons={courseLessons} />);
    const rows = await screen.findAllByTestId('roster-row');
    // A name is shown as the student typed it, never in capitals (issue 26.2).
    expect(getComputedStyle(rows[0]!.children[0]!).textTransform).not.toBe('uppercase');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['Ada', '', 'online', 'The C10K problem', '1 / 2', '3', 'New codeRemove'],
      ['Linus', '', 'offline', '—', '0 / 2', '0', 'New codeRemove'],
    ]);
    expect(screen.getByTestId('roster-count')).toHaveTextContent('1 of 2 online');
  });

  it('shows the slug while the lessons are unknown', async () => {
    mockFetch({ 'GET /api/classes/c-1/roster': roster });
    renderWithProviders(<RosterTable classId="c-1" live lessons={undefined} />);
    const [ada] = await screen.findAllByTestId('roster-row');
    expect(ada).toHaveTextContent('01-c10k-problem');
    expect(ada).toHaveTextContent('1 / …');
  });

  it('removes a student after asking, and asks for the roster again', async () => {
    let students = roster;
    const { calls } = mockFetch({
      'GET /api/classes/c-1/roster': () => ({ body: students }),
      'DELETE /api/classes/c-1/students/p-linus': () => {
        students = roster.slice(0, 1);
        return { status: 204, body: null };
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithProviders(<RosterTable classId="c-1" live lessons={courseLessons} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Linus' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false); // declined: nothing sent
    await userEvent.click(screen.getByRole('button', { name: 'Remove Linus' }));
    await waitFor(() => {
      expect(screen.getAllByTestId('roster-row')).toHaveLength(1);
    });
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/classes/c-1/students/p-linus']);
  });

  it('shows the server’s sentence when a removal is refused', async () => {
    mockFetch({
      'GET /api/classes/c-1/roster': roster,
      'DELETE /api/classes/c-1/students/p-ada': reply(
        404,
        problem('no-such-student', { class_name: 'Systems, Tuesday', student_id: 'p-ada', class_id: 'c-1' }),
      ),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<RosterTable classId="c-1" live lessons={courseLessons} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Ada' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('“Systems, Tuesday” has no such student.');
  });

  it('gives a student a new personal code after asking, and shows it once', async () => {
    const { calls } = mockFetch({
      'GET /api/classes/c-1/roster': roster,
      'POST /api/classes/c-1/students/p-ada/personal-code': { personal_code: 'Q2WE-RT6Y' },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<RosterTable classId="c-1" live lessons={courseLessons} />);
    await userEvent.click(await screen.findByRole('button', { name: 'A new personal code for Ada' }));
    expect(await screen.findByTestId('new-personal-code')).toHaveTextContent("Ada's new personal code: Q2WE-RT6Y");
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('lists the removed apart, and lets one back in', async () => {
    let students = [...roster, aStudent({ id: 'p-cy', name: 'Cy', online: false, removed_at: '2026-11-24T09:40:00+00:00' })];
    const { calls } = mockFetch({
      'GET /api/classes/c-1/roster': () => ({ body: students }),
      'POST /api/classes/c-1/students/p-cy/readmit': () => {
        students = students.map((s) => (s.id === 'p-cy' ? { ...s, removed_at: null } : s));
        return { status: 204, body: null };
      },
    });
    renderWithProviders(<RosterTable classId="c-1" live lessons={courseLessons} />);
    expect(await screen.findAllByTestId('roster-row')).toHaveLength(2);
    expect(screen.getByTestId('roster-count')).toHaveTextContent('1 of 2 online'); // Cy is not counted
    expect(screen.getByTestId('removed-row')).toHaveTextContent('Cy');
    await userEvent.click(screen.getByRole('button', { name: 'Let Cy back in' }));
    await waitFor(() => {
      expect(screen.getAllByTestId('roster-row')).toHaveLength(3);
    });
    expect(screen.queryByTestId('roster-removed')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/classes/c-1/students/p-cy/readmit']);
  });

  it('shows a raised hand with where the student is stuck, counts the hands, and lowers one', async () => {
    let hand: Record<string, string> | null = {
      lesson: '01-c10k-problem',
      lesson_title: 'The C10K problem',
      experiment: 'abc123',
      experiment_title: 'epoll at 100 connections',
      raised_at: '2026-11-24T14:05:00+00:00',
    };
    const { calls } = mockFetch({
      'GET /api/classes/c-1/roster': () => ({ body: [aStudent({ hand }), roster[1]] }),
      'DELETE /api/classes/c-1/hands/p-ada': () => {
        hand = null;
        return { status: 204, body: null };
      },
    });
    renderWithProviders(<RosterTable classId="c-1" live lessons={courseLessons} />);
    const mark = await screen.findByTestId('hand-mark');
    expect(mark).toHaveTextContent('stuck on The C10K problem · epoll at 100 connections');
    expect(mark).toHaveTextContent(/since \d\d:\d\d/);
    expect(screen.getByTestId('roster-count')).toHaveTextContent('1 of 2 online · 1 hand up');
    await userEvent.click(screen.getByRole('button', { name: "Lower Ada's hand" }));
    await waitFor(() => {
      expect(screen.queryByTestId('hand-mark')).not.toBeInTheDocument();
    });
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/classes/c-1/hands/p-ada')).toBe(true);
  });

  it('says so when nobody has joined', async () => {
    mockFetch({ 'GET /api/classes/c-1/roster': [] });
    renderWithProviders(<RosterTable classId="c-1" live lessons={courseLessons} />);
    expect(await screen.findByTestId('roster-empty')).toHaveTextContent('Nobody has joined yet');
    expect(within(document.body).queryByRole('table')).not.toBeInTheDocument();
  });
});
