import { act, screen } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { SourceBlock } from './source-block';

const excerpt = {
  path: 'servers/c/epoll.c',
  language: 'c',
  start_line: 120,
  end_line: 123,
  text: 'for (;;) {\n    int n = epoll_wait(epfd, events, MAX_EVENTS, -1);\n    handle_events(events, n);\n}\n',
};

describe('SourceBlock', () => {
  it('fetches the anchored lines and shows them highlighted with path and line numbers', async () => {
    const { calls } = mockFetch({ 'GET /api/sources/servers/c/epoll.c?anchor=event-loop': excerpt });
    const { container } = renderWithProviders(<SourceBlock code={'path: servers/c/epoll.c\nanchor: event-loop\n'} />);

    expect(await screen.findByText('servers/c/epoll.c')).toBeInTheDocument();
    expect(calls[0]?.url).toBe('/api/sources/servers/c/epoll.c?anchor=event-loop');
    expect(screen.getByText('event-loop · lines 120–123')).toBeInTheDocument();
    expect(screen.getByTestId('line-numbers').textContent).toBe('120\n121\n122\n123');
    expect(container.querySelector('code.hljs.language-c')).not.toBeNull();
    expect(container.querySelector('.hljs-keyword')?.textContent).toBe('for');
    expect(screen.getByTestId('source-block')).toHaveTextContent('epoll_wait(epfd, events, MAX_EVENTS, -1)');
  });

  it('supports lines: A-B', async () => {
    const { calls } = mockFetch({ 'GET /api/sources/servers/c/epoll.c?lines=120-123': excerpt });
    renderWithProviders(<SourceBlock code={'path: servers/c/epoll.c\nlines: 120-123'} />);
    expect(await screen.findByText('lines 120–123')).toBeInTheDocument();
    expect(calls[0]?.url).toBe('/api/sources/servers/c/epoll.c?lines=120-123');
  });

  it('links a C server’s model file to its editor', async () => {
    mockFetch({ 'GET /api/sources/servers/c/epoll.c?anchor=event-loop': excerpt, 'GET /api/servers': servers });
    renderWithProviders(<SourceBlock code={'path: servers/c/epoll.c\nanchor: event-loop\n'} />);
    const link = await screen.findByRole('link', { name: 'Edit c-epoll and run it' });
    expect(link).toHaveAttribute('href', '/edit/c-epoll');
  });

  it('has no Edit link under a file that is no C server’s model file', async () => {
    const protocol = { ...excerpt, path: 'servers/c/protocol.c' };
    mockFetch({
      'GET /api/sources/servers/c/protocol.c?lines=1-4': protocol,
      'GET /api/sources/servers/c/epoll.c?anchor=event-loop': excerpt,
      'GET /api/servers': servers,
    });
    renderWithProviders(
      <>
        <SourceBlock code={'path: servers/c/protocol.c\nlines: 1-4'} />
        <SourceBlock code={'path: servers/c/epoll.c\nanchor: event-loop'} />
      </>,
    );
    // Once the catalog has come (the model file's link is there), the shared module has none.
    await screen.findByRole('link', { name: 'Edit c-epoll and run it' });
    expect(screen.getAllByTestId('source-block')).toHaveLength(2);
    expect(screen.getAllByTestId('source-edit-link')).toHaveLength(1);
  });

  it('shows the backend’s error when the anchor does not exist', async () => {
    mockFetch({ 'GET /api/sources/servers/c/epoll.c?anchor=nope': reply(404, problem('anchor-not-marked', { name: 'nope' })) });
    renderWithProviders(<SourceBlock code={'path: servers/c/epoll.c\nanchor: nope'} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The anchor “nope” is not marked in this file (ANCHOR: nope … ANCHOR_END: nope).',
    );
  });

  it('captions the lines and names the editor in Chinese, the path and the server id as they are', async () => {
    mockFetch({ 'GET /api/sources/servers/c/epoll.c?anchor=event-loop': excerpt, 'GET /api/servers': servers });
    renderWithProviders(<SourceBlock code={'path: servers/c/epoll.c\nanchor: event-loop\n'} />);
    await act(() => i18next.changeLanguage('zh'));
    expect(await screen.findByText('event-loop · 第 120–123 行')).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: '编辑 c-epoll 并运行' });
    expect(link.querySelector('code')).toHaveTextContent('c-epoll');
  });

  it('says what is wrong with a broken block in the language switched to', async () => {
    mockFetch({});
    renderWithProviders(<SourceBlock code={'path: servers/c/epoll.c'} />);
    expect(screen.getByRole('alert')).toHaveTextContent('give exactly one of anchor or lines');
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByRole('alert')).toHaveTextContent('源码块有误');
    expect(screen.getByRole('alert')).toHaveTextContent('源码块无效：anchor 和 lines 必须且只能给出一个。');
  });

  it('shows a broken block as an error without fetching', () => {
    const { fetchMock } = mockFetch({});
    renderWithProviders(<SourceBlock code={'path: servers/c/epoll.c'} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Broken source block');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
