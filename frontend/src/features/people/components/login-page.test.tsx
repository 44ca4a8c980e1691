import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';

import { i18next } from '@/lib/i18n';
import { mockFetch, reply, type MockRequest } from '@/testing/mock-fetch';
import { grace, instructorMe, nobodyMe } from '@/testing/people-fixtures';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { ME_QUERY_KEY } from '../hooks/use-me';

import { LoginPage } from './login-page';

function renderLogin() {
  return renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/classes" element={<p>the classes</p>} />
    </Routes>,
    { route: '/login' },
  );
}

async function logIn(name: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Name'), name);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('LoginPage', () => {
  it('logs the instructor in and goes to their classes', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': nobodyMe, 'POST /api/auth/login': grace });
    const { client } = renderLogin();
    await logIn('Grace', 'e2e-password-123');
    expect(await screen.findByText('the classes')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Grace', password: 'e2e-password-123' });
    expect(client.getQueryData(ME_QUERY_KEY)).toEqual(instructorMe);
  });

  it('speaks Chinese, the link to joining inside its sentence', async () => {
    mockFetch({ 'GET /api/auth/me': instructorMe });
    await act(() => i18next.changeLanguage('zh'));
    renderLogin();
    expect(await screen.findByRole('heading', { name: '讲师登录' })).toBeInTheDocument();
    expect(screen.getByLabelText('密码')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: '登录' })).toBeInTheDocument();
    expect(screen.getByTestId('already-logged-in')).toHaveTextContent('你已以 Grace 的身份登录。我的班级 →');
    expect(screen.getByRole('link', { name: '加入班级' })).toHaveAttribute('href', '/join');
  });

  it('shows the server’s sentence for a wrong password, and for too many tries', async () => {
    let answer = reply(401, problem('wrong-login'));
    mockFetch({ 'GET /api/auth/me': nobodyMe, 'POST /api/auth/login': (request: MockRequest) => answer(request) });
    renderLogin();
    await logIn('Grace', 'nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong name or password.');

    answer = reply(429, problem('too-many-logins-for-account', { count: 5, minutes: 15, most: 5, retry: 600 }));
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(
      await screen.findByText(
        'Too many failed logins for this account from browsers it has not signed in from (5 in the last 15 minutes, at most 5): ' +
          'sign in from a browser you have signed in from before, or try again in 600 s.',
      ),
    ).toHaveAttribute('role', 'alert');
    expect(screen.queryByText('the classes')).not.toBeInTheDocument();
  });
});
