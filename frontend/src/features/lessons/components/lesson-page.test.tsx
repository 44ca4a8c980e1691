import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';

import { i18next } from '@/lib/i18n';
import { aLesson } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { INSTRUCTOR_KEY, readInstructorMode } from '../lib/instructor-mode';
import { readProgress } from '../lib/progress';
import type { Reader } from '../lib/reader';

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

1. A question?

   <details><summary>Answer</summary>

   The answer.

   </details>

<details class="speaker-notes"><summary>Speaker notes</summary>

- Ask the room first.

</details>
`;

const blocks: FencedBlockRenderers = {
  experiment: ({ code }) => <div data-testid="experiment-stub">{code}</div>,
  source: ({ code }) => <div data-testid="source-stub">{code}</div>,
};

function serveLesson() {
  return mockFetch({
    'GET /api/lessons/01-c10k-problem': {
      ...aLesson([]),
      markdown,
      prev: null,
      next: { slug: '02-blocking', title: 'One process per connection' },
    },
  });
}

/** Renders the lesson with its experiment blocks counted as they mount; once one is there,
 *  returns the count, which goes on counting. */
async function renderCountingMounts() {
  const counted = { mounts: 0 };
  function CountingBlock({ code }: { code: string }) {
    useEffect(() => {
      counted.mounts += 1;
    }, []);
    return <div data-testid="counting-block">{code}</div>;
  }
  renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={{ ...blocks, experiment: CountingBlock }} />);
  await screen.findByTestId('counting-block');
  return counted;
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

  it('shows the diagrams the lesson comes with as drawn, with no Mermaid', async () => {
    const diagram = 'flowchart LR\n  A --> B';
    mockFetch({
      'GET /api/lessons/01-c10k-problem': {
        ...aLesson([]),
        markdown: `Intro.\n\n\`\`\`mermaid\n${diagram}\n\`\`\`\n`,
        diagrams: [{ source: diagram, svg: '<svg id="c10k-diagram-bbbbbbbbbbbb"><text>A to B</text></svg>' }],
        prev: null,
        next: null,
      },
    });
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />);

    const figure = await screen.findByTestId('mermaid-diagram');
    expect(figure).toHaveAttribute('data-prerendered', 'true');
    expect(figure).toHaveAttribute('data-rendered', 'true');
    expect(figure.querySelector('svg#c10k-diagram-bbbbbbbbbbbb')).toHaveTextContent('A to B');
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

  it('shows a learner on their own no notes and no instructor switch', async () => {
    serveLesson();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />);
    await screen.findByRole('heading', { level: 1, name: 'The C10K problem' });
    expect(screen.getByText('Answer').closest('details')).toBeInTheDocument();
    expect(screen.queryByTestId('speaker-notes')).not.toBeInTheDocument();
    expect(screen.queryByText('Ask the room first.')).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Instructor mode' })).not.toBeInTheDocument();
  });

  it('shows the notes once asked for with ?instructor=1, remembered, with a switch to put them away', async () => {
    serveLesson();
    const { unmount } = renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />, {
      route: '/lessons/01-c10k-problem?instructor=1',
    });
    expect(await screen.findByTestId('speaker-notes')).toHaveTextContent('Ask the room first.');
    expect(readInstructorMode()).toBe(true);

    // A reload keeps the mode; switched off, the switch goes with the notes.
    unmount();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />);
    expect(await screen.findByTestId('speaker-notes')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Instructor mode' }));
    expect(screen.queryByTestId('speaker-notes')).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Instructor mode' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(INSTRUCTOR_KEY)).toBe('{"version":1,"enabled":false}');
  });

  it('switches instructor mode on from ?instructor=1 in the URL', async () => {
    serveLesson();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />, {
      route: '/lessons/01-c10k-problem?instructor=1',
    });
    expect(await screen.findByTestId('speaker-notes')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Instructor mode' })).toBeChecked();
    expect(readInstructorMode()).toBe(true);
  });

  it('also reads ?instructor= before the hash route (/?instructor=1#/lessons/…)', async () => {
    window.history.replaceState(null, '', '/?instructor=1');
    try {
      serveLesson();
      renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} />);
      expect(await screen.findByTestId('speaker-notes')).toBeInTheDocument();
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('keeps widgets mounted when instructor mode or "read" changes', async () => {
    window.localStorage.setItem(INSTRUCTOR_KEY, '{"version":1,"enabled":true}');
    serveLesson();
    const counted = await renderCountingMounts();
    expect(counted.mounts).toBe(1);
    expect(screen.getByTestId('speaker-notes')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('switch', { name: 'Instructor mode' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read this lesson' }));
    expect(screen.queryByTestId('speaker-notes')).not.toBeInTheDocument();
    expect(counted.mounts).toBe(1);
  });

  it('speaks Chinese around the lesson without mounting its widgets again', async () => {
    // The notes on (as an instructor previewing them would have them): the switch shows too.
    window.localStorage.setItem(INSTRUCTOR_KEY, '{"version":1,"enabled":true}');
    serveLesson();
    const counted = await renderCountingMounts();
    expect(screen.queryByTestId('lesson-untranslated')).not.toBeInTheDocument();
    await act(() => i18next.changeLanguage('zh'));
    // This lesson has no Chinese text yet: it says so, and its text is marked as English.
    expect(await screen.findByTestId('lesson-untranslated')).toHaveTextContent('这节课还没有中文版');
    expect(screen.getByRole('heading', { level: 1 })).toHaveAttribute('lang', 'en');

    expect(screen.getByText(/第 1 课 · 15 分钟/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '全部课程' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: /下一课 → One process per connection/ })).toHaveAttribute('href', '/lessons/02-blocking');
    expect(screen.getByRole('navigation', { name: '课程导航' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: '表格，可横向滚动' })).toContainElement(screen.getByRole('table'));
    expect(screen.getByRole('switch', { name: '讲师模式' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: '我已读完这节课' }));
    expect(screen.getByText('已读')).toHaveClass('badge');
    expect(counted.mounts).toBe(1);
  });

  it('says a missing lesson is not there, in words and in the tab title', async () => {
    document.title = 'Lesson 3 · C10K Lab';
    mockFetch({ 'GET /api/lessons/99-nope': reply(404, problem('no-lesson', { slug: '99-nope' })) });
    renderWithProviders(<LessonPage slug="99-nope" blocks={blocks} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Lesson not found' })).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('There is no lesson “99-nope”.');
    expect(alert).not.toHaveTextContent('GET /api/lessons');
    expect(document.title).toBe('Lesson not found · C10K Lab');
  });
});

const ada: Reader = { mode: 'classroom', person: { id: 'p-ada', kind: 'student' } };
const grace: Reader = { mode: 'classroom', person: { id: 'p-grace', kind: 'instructor' } };

function serveClassLesson(routes: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/lessons/01-c10k-problem': { ...aLesson([]), markdown },
    'GET /api/progress': { read: ['02-blocking'], current: '02-blocking' },
    'PUT /api/progress/current': { read: ['02-blocking'], current: '01-c10k-problem' },
    'PUT /api/progress/read/01-c10k-problem': { read: ['02-blocking', '01-c10k-problem'], current: '01-c10k-problem' },
    'DELETE /api/progress/read/01-c10k-problem': { read: ['02-blocking'], current: '01-c10k-problem' },
    ...routes,
  });
}

describe('LessonPage in a class', () => {
  it('keeps "read" on the server for someone signed in, and says which lesson is open', async () => {
    const { calls } = serveClassLesson();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} reader={ada} />);
    await screen.findByRole('heading', { level: 1, name: 'The C10K problem' });
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/progress/current')?.body).toEqual({ lesson: '01-c10k-problem' });
    });

    const checkbox = screen.getByRole('checkbox', { name: 'I have read this lesson' });
    expect(checkbox).not.toBeChecked();
    await userEvent.click(checkbox);
    await waitFor(() => {
      expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/progress/read/01-c10k-problem')).toBe(true);
    });
    expect(checkbox).toBeChecked();
    await userEvent.click(checkbox);
    await waitFor(() => {
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/progress/read/01-c10k-problem')).toBe(true);
    });
    expect(checkbox).not.toBeChecked();
    expect(readProgress().read).toEqual({}); // nothing in this browser
  });

  it('undoes a "read" the server refused, and says why', async () => {
    serveClassLesson({ 'PUT /api/progress/read/01-c10k-problem': reply(401, problem('session-ended')) });
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} reader={ada} />);
    const checkbox = await screen.findByRole('checkbox', { name: 'I have read this lesson' });
    await userEvent.click(checkbox);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not save that: Your session has ended (logged out or expired): log in or join again.',
    );
    expect(checkbox).not.toBeChecked();
  });

  it('shows the instructor switch to an instructor only', async () => {
    serveClassLesson();
    const { unmount } = renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} reader={ada} />);
    await screen.findByRole('heading', { level: 1, name: 'The C10K problem' });
    expect(screen.queryByRole('switch', { name: 'Instructor mode' })).not.toBeInTheDocument();
    unmount();

    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} reader={grace} />);
    await userEvent.click(await screen.findByRole('switch', { name: 'Instructor mode' }));
    expect(screen.getByTestId('speaker-notes')).toHaveTextContent('Ask the room first.');
  });

  it('shows no notes to a student even with instructor mode left on in this browser', async () => {
    window.localStorage.setItem(INSTRUCTOR_KEY, '{"version":1,"enabled":true}');
    serveClassLesson();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} reader={ada} />);
    await screen.findByRole('heading', { level: 1, name: 'The C10K problem' });
    expect(screen.queryByTestId('speaker-notes')).not.toBeInTheDocument();
  });

  it('saves nothing and shows no switch while it is not known who reads', async () => {
    const { calls } = serveClassLesson();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={blocks} reader={null} />);
    await screen.findByRole('heading', { level: 1, name: 'The C10K problem' });
    expect(screen.getByRole('checkbox', { name: 'I have read this lesson' })).toBeDisabled();
    expect(screen.queryByRole('switch', { name: 'Instructor mode' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/api/progress'))).toBe(false);
  });
});

