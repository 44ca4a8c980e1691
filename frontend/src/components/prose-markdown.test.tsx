import { screen } from '@testing-library/react';

import { renderWithProviders } from '@/testing/render';

import { ProseMarkdown } from './prose-markdown';

describe('ProseMarkdown', () => {
  it('reads as a lesson does: emphasis, code, a lesson’s link as its route, another site in a new tab', () => {
    const { container } = renderWithProviders(
      <ProseMarkdown
        markdown={[
          'This `c-epoll` runs **edge-triggered**; see [the epoll lesson](05-epoll.md#edge) and [epoll(7)](https://man7.org/linux/man-pages/man7/epoll.7.html).',
          '',
          '```c',
          'int n = read(fd, buf, sizeof buf);',
          '```',
          '',
          '<script>alert(1)</script><b onclick="x()">raw</b>',
        ].join('\n')}
      />,
    );
    expect(container.querySelector('.prose code')).toHaveTextContent('c-epoll');
    expect(container.querySelector('strong')).toHaveTextContent('edge-triggered');
    expect(screen.getByRole('link', { name: 'the epoll lesson' })).toHaveAttribute('href', '/lessons/05-epoll#edge');
    expect(screen.getByRole('link', { name: 'epoll(7)' })).toHaveAttribute('target', '_blank');
    expect(container.querySelector('code.language-c .hljs-keyword')).not.toBeNull();
    expect(container.querySelector('script, b[onclick]')).toBeNull();
  });
});
