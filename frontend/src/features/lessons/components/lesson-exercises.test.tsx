import { screen, waitFor, within } from '@testing-library/react';

import { aLesson } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { LessonPage } from './lesson-page';

const exercises = [
  { slug: 'et-drain', title: 'Edge-triggered epoll: read until EAGAIN', lesson: '01-c10k-problem', server: 'c-epoll', summary: 'Make it drain.' },
  { slug: 'fork-per-connection', title: 'From iterative to forking', lesson: '02-blocking', server: 'c-forking', summary: 'A child each.' },
  { slug: 'epollout-on-demand', title: 'EPOLLOUT on demand', lesson: '01-c10k-problem', server: 'c-epoll', summary: 'Wake only to write.' },
];

function serve(answer: unknown = exercises) {
  return mockFetch({
    'GET /api/lessons/01-c10k-problem': { ...aLesson([]), markdown: '## Why\n\nText.\n', prev: null, next: null },
    'GET /api/exercises': answer,
  });
}

describe('a lesson’s Exercises section', () => {
  it('lists this lesson’s exercises after its text, each linking to its page', async () => {
    serve();
    renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={{}} />);
    const section = await screen.findByTestId('lesson-exercises');
    expect(within(section).getByRole('heading', { level: 2, name: 'Exercises' })).toBeInTheDocument();
    const links = within(section).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Edge-triggered epoll: read until EAGAIN', '/exercises/et-drain'],
      ['EPOLLOUT on demand', '/exercises/epollout-on-demand'],
    ]);
    expect(section).toHaveTextContent('Make it drain.');
    // After the lesson's own text, before its footer.
    const text = screen.getByRole('heading', { level: 2, name: 'Why' });
    expect(text.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('is left out for a lesson with no exercises, and when they cannot be listed', async () => {
    serve(exercises.filter((e) => e.lesson !== '01-c10k-problem'));
    const first = renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={{}} />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Why' })).toBeInTheDocument();
    await waitFor(() => { expect(first.client.getQueryState(['exercises', 'en'])?.status).toBe('success'); });
    expect(screen.queryByTestId('lesson-exercises')).toBeNull();
    first.unmount();

    serve(reply(500, { detail: 'down' }));
    const second = renderWithProviders(<LessonPage slug="01-c10k-problem" blocks={{}} />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Why' })).toBeInTheDocument();
    await waitFor(() => { expect(second.client.getQueryState(['exercises', 'en'])?.status).toBe('error'); });
    expect(screen.queryByTestId('lesson-exercises')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
