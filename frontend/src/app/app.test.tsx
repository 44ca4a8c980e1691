import { act, render, screen, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { aLesson, anExperiment, healthyHealth, lessons, servers } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';

import { App } from './app';

function serveCourse() {
  return mockFetch({
    'GET /api/health': healthyHealth,
    'GET /api/servers': servers,
    'GET /api/lessons': lessons,
    'GET /api/lessons/01-c10k-problem': {
      ...aLesson([anExperiment('server: c-epoll\nconnections: 50', { run: { server: 'c-epoll', connections: 50 } })]),
      markdown: '## Try it\n\n```experiment\nserver: c-epoll\nconnections: 50\n```\n\n```source\npath: servers/c/epoll.c\nlines: 1-2\n```\n',
      prev: null,
      next: { slug: '02-blocking', title: 'One process per connection' },
    },
    'GET /api/sources/servers/c/epoll.c?lines=1-2': {
      path: 'servers/c/epoll.c',
      language: 'c',
      start_line: 1,
      end_line: 2,
      text: '#include <sys/epoll.h>\nint main(void);\n',
    },
  });
}

describe('App', () => {
  afterEach(() => {
    window.location.hash = '';
  });

  it('shows the course home with the title', async () => {
    serveCourse();
    render(<App />);
    expect(screen.getByRole('link', { name: /C10K Lab/ })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'The C10K problem' })).toHaveAttribute('href', '#/lessons/01-c10k-problem');
  });

  it('has an Exercises link, and the exercises load with their route', async () => {
    serveCourse();
    window.location.hash = '#/exercises';
    render(<App />);
    const nav = await screen.findByRole('navigation', { name: 'Course' });
    expect(within(nav).getByRole('link', { name: 'Exercises' })).toHaveAttribute('href', '#/exercises');
    expect(await screen.findByRole('heading', { level: 1, name: 'Exercises' })).toBeInTheDocument();
  });

  it('speaks Chinese in its header, navigation and footer, and on a page it does not have', async () => {
    serveCourse();
    window.location.hash = '#/no-such-page';
    render(<App />);
    await act(() => i18next.changeLanguage('zh'));

    expect(screen.getByRole('link', { name: '跳到正文' })).toHaveAttribute('href', '#main');
    expect(screen.getByText('实测 Linux 服务器的 I/O 模型')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: '课程' });
    const links = [['实验室', '#/lab'], ['历史记录', '#/history'], ['编辑', '#/edit'], ['练习', '#/exercises'], ['术语表', '#/glossary']];
    for (const [name, href] of links) expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href);
    expect(screen.getByRole('combobox', { name: '主题' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('C10K Lab · 基准测试在本机的沙箱容器中运行');
    expect(await screen.findByRole('heading', { level: 1, name: '找不到该页面' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← 返回课程' })).toHaveAttribute('href', '#/');
  });

  it('composes the experiment and source widgets into a lesson', async () => {
    serveCourse();
    window.location.hash = '#/lessons/01-c10k-problem';
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: 'The C10K problem' })).toBeInTheDocument();
    // The bench feature is its own chunk, loaded when the widget's place comes near the viewport.
    const widget = await screen.findByRole('region', { name: /Experiment/ });
    expect(within(widget).getByRole('button', { name: 'Run benchmark' })).toBeInTheDocument();
    expect(within(widget).getByTestId('run-state')).toHaveTextContent('not run yet');
    expect(await screen.findByText('servers/c/epoll.c')).toBeInTheDocument();
  });
});
