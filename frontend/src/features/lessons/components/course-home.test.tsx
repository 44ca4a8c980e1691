import { act, screen, waitFor, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { lessons } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { PROGRESS_KEY } from '../lib/progress';

import { CourseHome } from './course-home';

describe('CourseHome', () => {
  it('lists the lessons in order with links, summaries and minutes', async () => {
    mockFetch({ 'GET /api/lessons': [lessons[1], lessons[0]] });
    renderWithProviders(<CourseHome />);

    const list = await screen.findByTestId('lesson-list');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('link', { name: 'The C10K problem' })).toHaveAttribute('href', '/lessons/01-c10k-problem');
    expect(items[0]).toHaveTextContent('Why ten thousand connections were hard.');
    expect(items[0]).toHaveTextContent('15 min');
    expect(screen.getByTestId('progress-text')).toHaveTextContent('0 of 2 read');
    expect(screen.getByRole('link', { name: /Start the course: The C10K problem/ })).toBeInTheDocument();
  });

  it('offers lesson 0 to beginners on its own, before the course, in either language', async () => {
    const before = { slug: '00-before-you-start', language: 'en' as const, title: 'Before you start', summary: 'Sockets.', minutes: 25, order: 0 };
    const { calls } = mockFetch({ 'GET /api/lessons': [...lessons, before] });
    renderWithProviders(<CourseHome />);

    const path = await screen.findByTestId('beginner-path');
    expect(within(path).getByRole('heading', { name: 'New to network programming?' })).toBeInTheDocument();
    expect(path).toHaveTextContent('About 25 minutes');
    expect(within(path).getByRole('link', { name: 'Read lesson 0: Before you start' })).toHaveAttribute('href', '/lessons/00-before-you-start');
    // The course's own list and its first step start at lesson 1.
    expect(within(screen.getByTestId('lesson-list')).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('link', { name: /Start the course: The C10K problem/ })).toBeInTheDocument();
    // The count is of every lesson, lesson 0 too: the number the instructor's roster gives.
    expect(screen.getByTestId('progress-text')).toHaveTextContent('0 of 3 read');
    expect(calls.some((c) => c.url === '/api/lessons?lang=en')).toBe(true);

    await act(async () => { await i18next.changeLanguage('zh'); });
    expect(await screen.findByRole('heading', { name: '刚接触网络编程？' })).toBeInTheDocument();
    await waitFor(() => { expect(calls.some((c) => c.url === '/api/lessons?lang=zh')).toBe(true); });
  });

  it('marks lessons read from localStorage', async () => {
    window.localStorage.setItem(PROGRESS_KEY, JSON.stringify({ version: 1, read: { '01-c10k-problem': '2025-01-01T00:00:00Z' } }));
    mockFetch({ 'GET /api/lessons': lessons });
    renderWithProviders(<CourseHome />);

    const list = await screen.findByTestId('lesson-list');
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText('read')).toBeInTheDocument();
    expect(within(second!).queryByText('read')).not.toBeInTheDocument();
    expect(screen.getByTestId('progress-text')).toHaveTextContent('1 of 2 read');
    expect(screen.getByRole('link', { name: /Continue: One process per connection/ })).toBeInTheDocument();
  });

  it('ignores corrupt progress in localStorage', async () => {
    window.localStorage.setItem(PROGRESS_KEY, '{"version":7,"read":"everything"}');
    mockFetch({ 'GET /api/lessons': lessons });
    renderWithProviders(<CourseHome />);
    expect(await screen.findByTestId('progress-text')).toHaveTextContent('0 of 2 read');
  });

  it('speaks Chinese around the lessons, which keep the titles the API gave', async () => {
    window.localStorage.setItem(PROGRESS_KEY, JSON.stringify({ version: 1, read: { '01-c10k-problem': '2025-01-01T00:00:00Z' } }));
    mockFetch({ 'GET /api/lessons': lessons });
    renderWithProviders(<CourseHome />);
    await act(() => i18next.changeLanguage('zh'));

    expect(await screen.findByRole('heading', { level: 2, name: '课程' })).toBeInTheDocument();
    // The introduction's system calls stay code inside the Chinese sentence.
    const intro = screen.getByText(/一台 Linux 服务器如何同时处理一万个连接/);
    expect(within(intro).getByText('epoll').tagName).toBe('CODE');
    expect(screen.getByTestId('progress-text')).toHaveTextContent('已读 1 / 2 课');
    expect(screen.getByRole('progressbar', { name: '已读课程' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '继续学习：One process per connection' })).toBeInTheDocument();
    const [first] = within(screen.getByTestId('lesson-list')).getAllByRole('listitem');
    expect(within(first!).getByText('已读')).toBeInTheDocument();
    expect(first).toHaveTextContent('15 分钟');
  });

  it('says so when the backend fails', async () => {
    // A 500 is a bug, not a refusal (a Problem): whatever its body says, the page says the status.
    mockFetch({ 'GET /api/lessons': reply(500, { detail: 'content folder missing' }) });
    renderWithProviders(<CourseHome />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The lessons could not be loaded.GET /api/lessons?lang=en answered 500');
    expect(alert).not.toHaveTextContent('content folder missing');
  });

  it('shows the progress kept on the server for someone signed in to a class', async () => {
    window.localStorage.setItem(PROGRESS_KEY, JSON.stringify({ version: 1, read: { '02-blocking': '2025-01-01T00:00:00Z' } }));
    mockFetch({ 'GET /api/lessons': lessons, 'GET /api/progress': { read: ['01-c10k-problem'], current: '02-blocking' } });
    renderWithProviders(<CourseHome reader={{ mode: 'classroom', person: { id: 'p-ada', kind: 'student' } }} />);
    await waitFor(() => {
      expect(screen.getByTestId('progress-text')).toHaveTextContent('1 of 2 read');
    });
    expect(screen.getByRole('link', { name: /Continue: One process per connection/ })).toBeInTheDocument();
  });
});

