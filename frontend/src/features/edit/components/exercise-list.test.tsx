import { act, screen, waitFor, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { anAnswer as answer, lessons } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { ExerciseIndex } from './exercise-list';

const exercises = [
  { slug: 'fork-per-connection', title: 'From iterative to forking', lesson: '02-blocking', server: 'c-forking', summary: 'Serve each client in a child.' },
  { slug: 'et-drain', title: 'Edge-triggered epoll: read until EAGAIN', lesson: '01-c10k-problem', server: 'c-epoll', summary: 'Make it drain.' },
  { slug: 'reap-every-child', title: 'Reap every child', lesson: '02-blocking', server: 'c-forking', summary: 'No zombies.' },
];

describe('ExerciseIndex', () => {
  it('lists the exercises under their lessons, in order, each with this browser’s status', async () => {
    mockFetch({
      'GET /api/exercises': exercises,
      'GET /api/lessons': lessons,
      'GET /api/variants': [answer('v3', 'et-drain', 'failed'), answer('v2', 'et-drain', 'passed'), answer('v1', 'reap-every-child', 'pending'), answer('v0', null, null)],
    });
    renderWithProviders(<ExerciseIndex />);
    expect(screen.getByRole('heading', { level: 1, name: 'Exercises' })).toBeInTheDocument();
    await waitFor(() => { expect(screen.getAllByTestId('exercise-status')).toHaveLength(3); });

    const groups = screen.getAllByRole('heading', { level: 2 });
    expect(groups.map((h) => h.textContent)).toEqual(['Lesson 1: The C10K problem', 'Lesson 2: One process per connection']);
    expect(within(groups[1]!).getByRole('link')).toHaveAttribute('href', '/lessons/02-blocking');

    const items = screen.getAllByTestId('exercise-item');
    expect(items.map((li) => [within(li).getByRole('heading', { level: 3 }).textContent, li.dataset.status])).toEqual([
      ['Edge-triggered epoll: read until EAGAIN', 'passed'],
      ['From iterative to forking', 'not-tried'],
      ['Reap every child', 'tried'],
    ]);
    expect(within(items[0]!).getByRole('link')).toHaveAttribute('href', '/exercises/et-drain');
    expect(items[0]).toHaveTextContent('Make it drain.');
    expect(items[0]).toHaveTextContent('Edits c-epoll');
    expect(within(items[1]!).getByTestId('exercise-status')).toHaveTextContent('Your status: not tried');
  });

  it('still lists the exercises when the learner’s answers cannot be read, and says so', async () => {
    mockFetch({ 'GET /api/exercises': exercises, 'GET /api/lessons': lessons, 'GET /api/variants': reply(500, { detail: 'database is down' }) });
    renderWithProviders(<ExerciseIndex />);
    // A 500 is a bug, not a refusal (a Problem): the page says the status, not the body.
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your answers could not be loaded, so whether you tried each exercise is not shown: GET /api/variants answered 500',
    );
    expect(screen.getAllByTestId('exercise-item')).toHaveLength(3);
    expect(screen.queryByTestId('exercise-status')).toBeNull();
  });

  it('reads in Chinese: the list’s words, the exercises’ titles as the API gives them', async () => {
    await act(async () => { await i18next.changeLanguage('zh'); });
    mockFetch({ 'GET /api/exercises': exercises, 'GET /api/lessons': lessons, 'GET /api/variants': [answer('v1', 'et-drain', 'passed')] });
    renderWithProviders(<ExerciseIndex />);
    expect(screen.getByRole('heading', { level: 1, name: '练习' })).toBeInTheDocument();
    await waitFor(() => { expect(screen.getAllByTestId('exercise-status')).toHaveLength(3); });
    const item = screen.getAllByTestId('exercise-item').find((li) => li.textContent.includes('Edge-triggered epoll'));
    expect(item).toHaveTextContent('修改 c-epoll');
    expect(within(item!).getByTestId('exercise-status')).toHaveTextContent('你的状态：已通过');
  });
});
