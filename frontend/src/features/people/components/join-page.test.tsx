import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';

import { i18next } from '@/lib/i18n';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { joinedAda, nobodyMe, soloMe, studentMe } from '@/testing/people-fixtures';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { ME_QUERY_KEY } from '../hooks/use-me';

import { JoinPage } from './join-page';

function renderJoin(route = '/join') {
  return renderWithProviders(
    <Routes>
      <Route path="/join" element={<JoinPage />} />
      <Route path="/" element={<p>course home</p>} />
    </Routes>,
    { route },
  );
}

describe('JoinPage', () => {
  it('pre-fills the code from ?code= and joins with it, shows the personal code once, then the course', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': nobodyMe, 'POST /api/classes/join': joinedAda });
    const { client } = renderJoin('/join?code=k7qx-m4tp');
    const code = await screen.findByLabelText('Join code');
    expect(code).toHaveValue('K7QX-M4TP');
    await userEvent.type(screen.getByLabelText('Your name'), 'Ada de Vries');
    await userEvent.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByTestId('personal-code')).toHaveTextContent('H4KD-P7WQ');
    expect(screen.getByRole('heading', { name: 'Welcome to Systems, Tuesday' })).toBeInTheDocument();
    // The name goes as typed; the personal code stays out of the cached `me`.
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'K7QX-M4TP', name: 'Ada de Vries' });
    expect(client.getQueryData(ME_QUERY_KEY)).toEqual(studentMe);
    await userEvent.click(screen.getByRole('button', { name: 'Continue to the course' }));
    expect(await screen.findByText('course home')).toBeInTheDocument();
  });

  it('brings a student back with the class code and their personal code', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': nobodyMe, 'POST /api/classes/come-back': studentMe });
    const { client } = renderJoin('/join?code=K7QX-M4TP');
    await userEvent.click(await screen.findByRole('button', { name: 'Been here before' }));
    expect(screen.getByLabelText('Join code')).toHaveValue('K7QX-M4TP');
    await userEvent.type(screen.getByLabelText('Your personal code'), 'h4kd-p7wq');
    await userEvent.click(screen.getByRole('button', { name: 'Come back' }));
    expect(await screen.findByText('course home')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'K7QX-M4TP', personal_code: 'H4KD-P7WQ' });
    expect(client.getQueryData(ME_QUERY_KEY)).toEqual(studentMe);
  });

  it.each([
    [
      404,
      problem('no-join-code', { code: 'NOPE', example: 'K7QX-M4TP' }),
      'No class has the join code “NOPE”: check it with your instructor (letters and digits, e.g. K7QX-M4TP).',
    ],
    [410, problem('class-ended', { class_name: 'Systems, Tuesday' }), 'The class “Systems, Tuesday” has ended; its code no longer lets anyone in.'],
    [
      422,
      problem('name-taken', { class_name: 'Systems, Tuesday', name: 'Ada' }),
      'Someone in “Systems, Tuesday” already joined as “Ada”. If that was you on another device, come back with your personal code; ' +
        'otherwise add an initial or pick another name.',
    ],
  ])('shows the server’s sentence for a %i', async (status, refusal, sentence) => {
    mockFetch({ 'GET /api/auth/me': nobodyMe, 'POST /api/classes/join': reply(status, refusal) });
    renderJoin();
    await userEvent.type(await screen.findByLabelText('Join code'), 'nope');
    await userEvent.type(screen.getByLabelText('Your name'), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(sentence);
    expect(screen.queryByText('course home')).not.toBeInTheDocument();
  });

  it('says who you are when you have joined already', async () => {
    mockFetch({ 'GET /api/auth/me': studentMe });
    renderJoin();
    expect(await screen.findByTestId('already-joined')).toHaveTextContent('You are in Systems, Tuesday as Ada.');
  });

  it('joins in Chinese', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': nobodyMe, 'POST /api/classes/join': joinedAda });
    await act(() => i18next.changeLanguage('zh'));
    renderJoin('/join?code=K7QX-M4TP');
    expect(await screen.findByRole('heading', { name: '加入班级' })).toBeInTheDocument();
    expect(screen.getByLabelText('加入码')).toHaveValue('K7QX-M4TP');
    expect(screen.getByText('最多 40 个字符，写法随你；班里不能有别人用同一个名字（不区分大小写）。')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('你的名字'), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: '加入' }));
    expect(await screen.findByTestId('personal-code')).toHaveTextContent('H4KD-P7WQ');
    await userEvent.click(screen.getByRole('button', { name: '进入课程' }));
    expect(await screen.findByText('course home')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'K7QX-M4TP', name: 'Ada' });
  });

  it('explains solo mode in Chinese, keeping the setting as code', async () => {
    mockFetch({ 'GET /api/auth/me': soloMe });
    await act(() => i18next.changeLanguage('zh'));
    renderJoin();
    const note = await screen.findByTestId('solo-mode');
    expect(note).toHaveTextContent('本课程以单人模式运行');
    expect(note.querySelector('code')).toHaveTextContent('C10K_MODE=classroom');
    expect(screen.getByRole('link', { name: '← 返回课程' })).toHaveAttribute('href', '/');
  });

  it('explains that solo mode has no classes', async () => {
    mockFetch({ 'GET /api/auth/me': soloMe });
    renderJoin();
    expect(await screen.findByTestId('solo-mode')).toHaveTextContent('solo mode');
    await waitFor(() => {
      expect(screen.queryByRole('button', { name: 'Join' })).not.toBeInTheDocument();
    });
  });
});
