import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { lessons } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { readProgress } from '../lib/progress';

import type { FencedBlockRenderers } from './lesson-markdown';
import { LessonPage } from './lesson-page';

const markdown = `Intro paragraph with \`epoll_wait\`.

## Results so far

| model | connections |
|-------|-------------|
| select | 1024 |
| epoll | 10000 |

\`\`\`c
int main(void) { return 0; }
\`\`\`

\`\`\`experiment
server: c-epoll
\`\`\`

\`\`\`source
path: servers/c/epoll.c
anchor: event-loop
\`\`\`

See [the next lesson](02-blocking.md) or [the Kegel page](http://www.kegel.com/c10k.html).
`;

const blocks: FencedBlockRenderers = {
  experiment: ({ code }) => <div data-testid="experiment-stub">{code}</div>,
  source: ({ code }) => <div data-testid="source-stub">{code}</div>,
};

function serveLesson() {
  return mockFetch({
    'GET /api/lessons/01-c10k-problem': {
      ...lessons[0],
      markdown,
      prev: null,
      next: { slug: '02-blocking', title: 'One process per connection' },
    },
  });
}

describe('LessonPage', () => {
  it('renders GFM Markdown, highlighted code, and hands special blocks to their renderers', async () => {
    serveLesson();
    const { container } = renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'The C10K problem' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Results so far' })).toHaveAttribute('id', 'results-so-far');
    expect(screen.getByRole('table')).toHaveTextContent('epoll10000');
    expect(container.querySelector('code.language-c .hljs-keyword')).not.toBeNull();
    expect(screen.getByTestId('experiment-stub')).toHaveTextContent('server: c-epoll');
    expect(screen.getByTestId('source-stub')).toHaveTextContent('anchor: event-loop');
    expect(screen.getByRole('link', { name: 'the next lesson' })).toHaveAttribute('href', '/lessons/02-blocking');
    expect(screen.getByRole('link', { name: 'the Kegel page' })).toHaveAttribute('target', '_blank');
  });

  it('links to the next lesson and records "read" in localStorage', async () => {
    serveLesson();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />);

    const next = await screen.findByRole('link', { name: /Next → One process per connection/ });
    expect(next).toHaveAttribute('href', '/lessons/02-blocking');
    expect(screen.queryByRole('link', { name: /Previous/ })).not.toBeInTheDocument();

    const checkbox = screen.getByRole('checkbox', { name: 'I have read this lesson' });
    expect(checkbox).not.toBeChecked();
    await userEvent.click(checkbox);
    expect(checkbox).toBeChecked();
    expect(Object.keys(readProgress().read)).toEqual(['01-c10k-problem']);
    await userEvent.click(checkbox);
    expect(readProgress().read).toEqual({});
  });

  it('shows an error for a missing lesson', async () => {
    mockFetch({});
    renderWithProviders(<LessonPage slug="99-nope" blocks={blocks} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This lesson could not be loaded.');
  });
});
