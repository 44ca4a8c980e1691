import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';
import {
  aClassroomClass,
  anAssignment,
  aPresentation,
  aQueuedRun,
  board,
  exerciseList,
  gradebook,
  joinLinks,
  roster,
} from '@/testing/classroom-fixtures';
import { FakeEventSource } from '@/testing/fake-event-source';
import { lessons } from '@/testing/fixtures';
import { mockFetch, reply, type MockRequest } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { ClassPage } from './class-page';

function serveClass(klass = aClassroomClass(), extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/classes/c-1': klass,
    'GET /api/classes/c-1/roster': roster,
    'GET /api/classes/c-1/queue': { paused: klass.paused, runs: [aQueuedRun()] },
    'GET /api/classes/c-1/board': board,
    'GET /api/classes/c-1/gradebook': gradebook,
    'GET /api/classes/c-1/join-links': joinLinks,
    'GET /api/classes/c-1/staff': [
      { id: 'p-grace', name: 'Grace', role: 'owner' },
      { id: 'p-tam', name: 'Tam', role: 'assistant' },
    ],
    'GET /api/exercises': exerciseList,
    'GET /api/lessons': lessons,
    ...extra,
  });
}

const posts = (calls: MockRequest[]) => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);

describe('ClassPage', () => {
  it('shows the class for the room: its name, the join code large, the server’s link and its QR code', async () => {
    serveClass(aClassroomClass({ ends_at: new Date(Date.now() + 45 * 60_000).toISOString() }));
    renderWithProviders(<ClassPage classId="c-1" />);
    const header = await screen.findByTestId('class-header');
    expect(within(header).getByRole('heading', { level: 1, name: 'Systems, Tuesday' })).toBeInTheDocument();
    expect(within(header).getByTestId('join-code')).toHaveTextContent('K7QX-M4TP');
    // Opened on the host (localhost), the link is the host's address on the network.
    const link = 'http://192.0.2.10:8000/#/join?code=K7QX-M4TP';
    expect(await within(header).findByTestId('join-link')).toHaveAttribute('href', link);
    expect(within(header).getByTestId('join-link-note')).toHaveTextContent('You opened the course as localhost');
    expect(within(header).getByText('1 other address of this computer')).toBeInTheDocument();
    expect(within(header).queryByTestId('join-link-warning')).not.toBeInTheDocument();
    const qr = await within(header).findByTestId('join-qr');
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(qr).toHaveAccessibleName(`QR code of the join link ${link}`);
    expect(within(header).getByTestId('class-ends')).toHaveTextContent(/Ends at .+ \(in 45 min\)/);
    // The rest of the page: students, runs, board, and the CSV of every run.
    expect(await screen.findAllByTestId('roster-row')).toHaveLength(2);
    expect(await screen.findAllByTestId('queue-row')).toHaveLength(1);
    expect(await screen.findAllByTestId('board-experiment')).toHaveLength(2);
    expect(screen.getByTestId('class-export-csv')).toHaveAttribute('href', '/api/classes/c-1/runs.csv');
    expect(screen.getByTestId('class-export-csv')).toHaveAttribute('download');
    // The queue names the experiment by the board's title.
    expect(screen.getByTestId('queue-row')).toHaveTextContent('The C10K problem · epoll at 100 connections');
  });

  it('warns, in the instructor’s words, when the link could only work on this computer', async () => {
    serveClass(aClassroomClass(), {
      'GET /api/classes/c-1/join-links': {
        links: [{ url: 'http://localhost:8000/#/join?code=K7QX-M4TP', kind: 'browser' }],
        opened_on_host: true,
        warning: 'listens-on-loopback',
      },
    });
    renderWithProviders(<ClassPage classId="c-1" />);
    const warning = await screen.findByTestId('join-link-warning');
    expect(warning).toHaveTextContent('This link works only on this computer: the course listens on 127.0.0.1');
    expect(warning).toHaveTextContent('C10K_HOST=0.0.0.0');
    expect(screen.queryByTestId('join-link-note')).not.toBeInTheDocument();
  });

  it('changes how long students keep their results', async () => {
    const { calls } = serveClass(aClassroomClass(), {
      'PATCH /api/classes/c-1': aClassroomClass({ results_days: 3 }),
    });
    renderWithProviders(<ClassPage classId="c-1" />);
    const days = await screen.findByTestId('results-days');
    expect(days).toHaveTextContent('After it ends, students can read their results for 7 days.');
    await userEvent.click(within(days).getByRole('button', { name: 'Change' }));
    const field = screen.getByRole('spinbutton', { name: 'Days students keep their results' });
    await userEvent.clear(field);
    await userEvent.type(field, '3');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('results-days')).toHaveTextContent('for 3 days');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ results_days: 3 });
  });

  it('shows a teaching assistant everything, and none of the controls that change the class', async () => {
    serveClass(aClassroomClass({ role: 'assistant' }));
    renderWithProviders(<ClassPage classId="c-1" />);
    expect(await screen.findAllByTestId('roster-row')).toHaveLength(2);
    expect(await screen.findAllByTestId('queue-row')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'A new personal code for Ada' })).toBeInTheDocument();
    for (const name of ['End class', 'Pause runs', 'Remove Ada']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByTestId('live-panel')).not.toBeInTheDocument();
    expect(await screen.findByTestId('staff-list')).toHaveTextContent('Tam · teaching assistant');
    expect(screen.queryByRole('form', { name: 'Add to the staff' })).not.toBeInTheDocument();
  });

  it('lets the class’s own instructor add to its staff', async () => {
    const { calls } = serveClass(aClassroomClass({ role: 'owner' }), {
      'PUT /api/classes/c-1/staff': { id: 'p-linus', name: 'Linus', role: 'co-teacher' },
    });
    renderWithProviders(<ClassPage classId="c-1" />);
    const form = await screen.findByRole('form', { name: 'Add to the staff' });
    await userEvent.type(within(form).getByLabelText('Instructor account'), 'Linus');
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'co-teacher');
    await userEvent.click(within(form).getByRole('button', { name: 'Add to the staff' }));
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'PUT' && c.path.endsWith('/staff'))?.body).toEqual({ name: 'Linus', role: 'co-teacher' });
    });
  });

  it('counts its students: one student, two students', async () => {
    serveClass(aClassroomClass({ students: 1 }));
    const { unmount } = renderWithProviders(<ClassPage classId="c-1" />);
    expect(await screen.findByText('1 student')).toBeInTheDocument();
    unmount();
    serveClass(aClassroomClass({ students: 2 }));
    renderWithProviders(<ClassPage classId="c-1" />);
    expect(await screen.findByText('2 students')).toBeInTheDocument();
  });

  it('speaks Chinese for the room: the header, the students, the runs and what is presented', async () => {
    serveClass(aClassroomClass({ ends_at: new Date(Date.now() + 45 * 60_000).toISOString() }));
    await act(() => i18next.changeLanguage('zh'));
    renderWithProviders(<ClassPage classId="c-1" />);
    const header = await screen.findByTestId('class-header');
    expect(within(header).getByText('加入码')).toBeInTheDocument();
    expect((await within(header).findByTestId('join-link')).parentElement).toHaveTextContent(/^或打开 http/);
    expect(within(header).getByText(/^2 名学生/)).toBeInTheDocument();
    expect(within(header).getByTestId('class-ends')).toHaveTextContent(/将于 .+ 结束（45 分钟后）/);
    expect(within(header).getByRole('button', { name: '结束班级' })).toBeInTheDocument();
    expect(await within(header).findByRole('img', { name: /^加入链接 http.+ 的二维码$/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: '学生' })).toBeInTheDocument();
    expect(await screen.findByTestId('roster-count')).toHaveTextContent('1 / 2 人在线');
    expect(screen.getByTestId('pause-state')).toHaveTextContent('运行正常进行');
    expect(screen.getByRole('button', { name: '暂停运行' })).toBeInTheDocument();
    expect(await screen.findByTestId('queue-state')).toHaveTextContent('排队中，第 2 位，约 40 秒');
    expect(screen.getByRole('button', { name: '取消 Ada 在 c-epoll 上的运行' })).toBeInTheDocument();
    expect(screen.getByTestId('class-export-csv')).toHaveTextContent('导出 CSV');
    expect(screen.getByTestId('class-export-csv')).toHaveAttribute('href', '/api/classes/c-1/runs.csv');
    expect(screen.getByTestId('presentation-bar')).toHaveTextContent('当前没有展示任何内容');
    act(() => {
      FakeEventSource.latest().emit('presentation', aPresentation(), '');
    });
    expect(await screen.findByTestId('presentation-what')).toHaveTextContent('epoll：100 个连接（C10K 问题）');
    expect(screen.getByTestId('presentation-bar')).toHaveTextContent('正在展示：epoll：100 个连接（C10K 问题）停止展示');
  });

  it('pauses and resumes the class’s runs, saying which state it is in', async () => {
    const { calls } = serveClass(aClassroomClass(), {
      'POST /api/classes/c-1/pause': aClassroomClass({ paused: true }),
      'POST /api/classes/c-1/resume': aClassroomClass({ paused: false }),
    });
    renderWithProviders(<ClassPage classId="c-1" />);
    expect(await screen.findByTestId('pause-state')).toHaveTextContent('Runs are running');
    await userEvent.click(screen.getByRole('button', { name: 'Pause runs' }));
    await waitFor(() => {
      expect(screen.getByTestId('pause-state')).toHaveTextContent('Runs are paused: waiting runs stay queued until you resume.');
    });
    await userEvent.click(screen.getByRole('button', { name: 'Resume runs' }));
    await waitFor(() => {
      expect(screen.getByTestId('pause-state')).toHaveTextContent('Runs are running');
    });
    expect(posts(calls)).toEqual(['POST /api/classes/c-1/pause', 'POST /api/classes/c-1/resume']);
  });

  it('follows the class stream: a pause elsewhere, and what is presented, with Stop presenting', async () => {
    const { calls } = serveClass(aClassroomClass(), { 'DELETE /api/classes/c-1/presentation': reply(204, null) });
    renderWithProviders(<ClassPage classId="c-1" />);
    expect(await screen.findByTestId('presentation-bar')).toHaveTextContent('Nothing is presented');
    const es = FakeEventSource.latest();
    expect(es.url).toBe('/api/classes/c-1/events');
    act(() => {
      // The stream is the whole class's: it carries no join code, and the page keeps its own.
      es.emit('class', aClassroomClass({ paused: true, join_code: '' }), '');
      es.emit('presentation', aPresentation({ spotlight: { id: 'p-ada', name: 'Ada' } }), '');
    });
    expect(await screen.findByTestId('presentation-what')).toHaveTextContent(
      'epoll at 100 connections, in The C10K problem (spotlight: Ada)',
    );
    await waitFor(() => {
      expect(screen.getByTestId('pause-state')).toHaveTextContent('Runs are paused');
    });
    expect(screen.getByTestId('join-code')).toHaveTextContent(aClassroomClass().join_code);
    await userEvent.click(screen.getByRole('button', { name: 'Stop presenting' }));
    await waitFor(() => {
      expect(posts(calls)).toEqual(['DELETE /api/classes/c-1/presentation']);
    });
    act(() => {
      es.emit('presentation', null, '');
    });
    await waitFor(() => {
      expect(screen.getByTestId('presentation-bar')).toHaveTextContent('Nothing is presented');
    });
  });

  it('ends the class after asking, then hides its code and stops following it', async () => {
    const { calls } = serveClass(aClassroomClass(), {
      'POST /api/classes/c-1/end': aClassroomClass({ ended_at: '2026-11-24T11:00:00+00:00' }),
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<ClassPage classId="c-1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'End class' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    await waitFor(() => {
      expect(screen.getByTestId('class-ends')).toHaveTextContent(/^Ended at .+: its code no longer admits anyone/);
    });
    expect(screen.queryByTestId('join-code')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause runs' })).not.toBeInTheDocument();
    expect(FakeEventSource.latest().closed).toBe(true);
    expect(posts(calls)).toEqual(['POST /api/classes/c-1/end']);
  });

  it('lists the assigned exercises with their due times, the gradebook and its CSV', async () => {
    serveClass();
    renderWithProviders(<ClassPage classId="c-1" />);
    const section = await screen.findByRole('region', { name: 'Exercises' });
    const items = await within(section).findAllByTestId('assignment');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual([
      'Edge-triggered epoll: read until EAGAIN',
      'select() rewrites its arguments',
    ]);
    expect(within(items[0]!).getByRole('link')).toHaveAttribute('href', '/exercises/et-drain');
    expect(within(items[0]!).getByTestId('assignment-due')).toHaveTextContent('no due time');
    expect(within(items[1]!).getByTestId('assignment-due')).toHaveTextContent(/^was due 24 Nov 2026, \d\d:00$/);
    expect(within(items[1]!).getByRole('time')).toHaveAttribute('datetime', '2026-11-24T10:00:00.000+00:00');
    // Only what is not assigned yet is offered.
    const options = within(within(section).getByLabelText('Exercise')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Choose an exercise…', 'Reap every child']);
    expect(within(section).getAllByTestId('gradebook-row')).toHaveLength(2);
    const csv = within(section).getByTestId('gradebook-export-csv');
    expect(csv).toHaveAttribute('href', '/api/classes/c-1/gradebook.csv');
    expect(csv).toHaveAttribute('download');
  });

  it('assigns an exercise and takes one off, reading the gradebook again after each', async () => {
    let book = gradebook;
    const reap = anAssignment({ exercise: 'reap-every-child', title: 'Reap every child', lesson: '02-blocking-servers' });
    const { calls } = serveClass(aClassroomClass(), {
      'GET /api/classes/c-1/gradebook': () => ({ body: book }),
      'PUT /api/classes/c-1/assignments/reap-every-child': () => {
        book = { assignments: [...gradebook.assignments, reap], students: [] };
        return { body: reap };
      },
      'DELETE /api/classes/c-1/assignments/et-drain': () => {
        book = { assignments: book.assignments.slice(1), students: [] };
        return { status: 204, body: null };
      },
    });
    renderWithProviders(<ClassPage classId="c-1" />);
    const section = await screen.findByRole('region', { name: 'Exercises' });
    await userEvent.selectOptions(await within(section).findByLabelText('Exercise'), 'reap-every-child');
    await userEvent.click(within(section).getByRole('button', { name: 'Assign' }));
    await waitFor(() => {
      expect(within(section).getAllByTestId('assignment')).toHaveLength(3);
    });
    expect(within(section).getByTestId('all-assigned')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Remove Edge-triggered epoll: read until EAGAIN' }));
    await waitFor(() => {
      expect(within(section).getAllByTestId('assignment')).toHaveLength(2);
    });
    expect(posts(calls)).toEqual(['PUT /api/classes/c-1/assignments/reap-every-child', 'DELETE /api/classes/c-1/assignments/et-drain']);
    expect(calls.filter((c) => c.path === '/api/classes/c-1/gradebook')).toHaveLength(3);
    // No student yet: nothing to grade.
    expect(within(section).getByTestId('gradebook-empty')).toBeInTheDocument();
  });

  it('keeps an ended class’s exercises as they were: nothing to assign or take off', async () => {
    serveClass(aClassroomClass({ ended_at: '2026-11-24T11:00:00+00:00' }));
    renderWithProviders(<ClassPage classId="c-1" />);
    const section = await screen.findByRole('region', { name: 'Exercises' });
    expect(await within(section).findAllByTestId('assignment')).toHaveLength(2);
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
    expect(within(section).queryByRole('form')).not.toBeInTheDocument();
    expect(within(section).getAllByTestId('gradebook-row')).toHaveLength(2);
  });

  it('says why when the class cannot be loaded', async () => {
    mockFetch({ 'GET /api/classes/c-9': reply(404, problem('not-your-class', { class_id: 'c-9' })) });
    renderWithProviders(<ClassPage classId="c-9" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not teach this class.');
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
