import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { instructorMe, nobodyMe, soloMe, studentMe } from '@/testing/people-fixtures';
import { renderWithProviders } from '@/testing/render';

import { AccountNav } from './account-nav';

describe('AccountNav', () => {
  it('adds nothing in solo mode', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': soloMe });
    const { container } = renderWithProviders(<AccountNav />);
    await waitFor(() => {
      expect(calls).toHaveLength(1);
    });
    expect(container).toBeEmptyDOMElement();
  });

  it('offers joining and the instructor login when nobody is logged in', async () => {
    mockFetch({ 'GET /api/auth/me': nobodyMe });
    renderWithProviders(<AccountNav />);
    const nav = await screen.findByTestId('account-nav');
    expect(within(nav).getByRole('link', { name: 'Join a class' })).toHaveAttribute('href', '/join');
    expect(within(nav).getByRole('link', { name: 'Instructor login' })).toHaveAttribute('href', '/login');
  });

  it('names a student and their class, and signs out after reminding them of their personal code', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': studentMe, 'POST /api/auth/logout': reply(204, undefined) });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithProviders(<AccountNav />);
    expect(await screen.findByTestId('account-name')).toHaveTextContent('Ada · Systems, Tuesday');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(confirm).toHaveBeenLastCalledWith(expect.stringContaining('your personal code'));
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(false); // they thought again
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('link', { name: 'Join a class' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/auth/logout')).toBe(true);
    confirm.mockRestore();
  });

  it('names the instructor and links their classes', async () => {
    mockFetch({ 'GET /api/auth/me': instructorMe });
    renderWithProviders(<AccountNav />);
    expect(await screen.findByTestId('account-name')).toHaveTextContent('Grace (instructor)');
    expect(screen.getByRole('link', { name: 'Your classes' })).toHaveAttribute('href', '/classes');
  });

  it('follows a switch to Chinese without reloading', async () => {
    mockFetch({ 'GET /api/auth/me': instructorMe });
    renderWithProviders(<AccountNav />);
    expect(await screen.findByRole('button', { name: 'Log out' })).toBeInTheDocument();
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByTestId('account-name')).toHaveTextContent('Grace （讲师）');
    expect(screen.getByRole('link', { name: '我的班级' })).toHaveAttribute('href', '/classes');
    expect(screen.getByRole('button', { name: '退出登录' })).toBeInTheDocument();
  });
});
