import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';

import { i18next } from '@/lib/i18n';
import { lessons } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { SearchBox } from './search-box';

function lesson(slug: string, markdown: string) {
  const summary = lessons.find((l) => l.slug === slug)!;
  return { ...summary, markdown, diagrams: [], experiments: [], prerequisites: [], prev: null, next: null };
}

const routes = {
  'GET /api/lessons': lessons,
  'GET /api/lessons/01-c10k-problem': lesson('01-c10k-problem', '## Thundering herd\n\nEvery worker wakes for one connection.\n'),
  'GET /api/lessons/02-blocking': lesson('02-blocking', '## Fork per connection\n\nThe parent forks; the herd is not here.\n'),
  'GET /api/glossary': {
    title: 'Glossary',
    language: 'en',
    summary: 'Terms.',
    markdown: '## T–Z\n\n### Thundering herd\n\nMany sleepers woken for one event.\n',
    terms: ['Thundering herd'],
  },
};

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.hash}</p>;
}

function renderBox() {
  return renderWithProviders(
    <>
      <SearchBox />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>,
  );
}

describe('SearchBox', () => {
  it('fetches nothing until the box is used, then the lessons and the glossary once', async () => {
    const { calls } = mockFetch(routes);
    renderBox();
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole('combobox', { name: 'Search lessons and glossary' }));
    await waitFor(() => {
      expect(calls.map((c) => c.path).sort()).toEqual([
        '/api/glossary',
        '/api/lessons',
        '/api/lessons/01-c10k-problem',
        '/api/lessons/02-blocking',
      ]);
    });
  });

  it('lists lesson sections and glossary terms, best first, and opens one with the keyboard', async () => {
    mockFetch(routes);
    renderBox();
    const box = screen.getByRole('combobox', { name: 'Search lessons and glossary' });
    await userEvent.type(box, 'herd');

    const list = await screen.findByRole('listbox', { name: 'Search results' });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringMatching(/^Thundering herdLesson 1 · The C10K problem/),
      expect.stringMatching(/^Thundering herdGlossary/),
      expect.stringMatching(/^Fork per connectionLesson 2/),
    ]);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('3 results');

    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await userEvent.keyboard('{Enter}');

    expect(screen.getByTestId('where')).toHaveTextContent('/glossary#thundering-herd');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveValue('');
  });

  it('opens a result on click, wraps with ArrowUp, and closes with Escape', async () => {
    mockFetch(routes);
    renderBox();
    const box = screen.getByRole('combobox');
    await userEvent.type(box, 'fork');
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(2); // the section, and lesson 2's summary "fork() and friends."

    await userEvent.keyboard('{ArrowUp}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveValue('fork');
    await userEvent.keyboard('{Escape}');
    expect(box).toHaveValue('');

    await userEvent.type(box, 'fork');
    await userEvent.click(await screen.findByRole('option', { name: /Fork per connection/ }));
    expect(screen.getByTestId('where')).toHaveTextContent('/lessons/02-blocking#fork-per-connection');
  });

  it('says when nothing matches, and searches the lessons it could load when one fails', async () => {
    mockFetch({ ...routes, 'GET /api/lessons/01-c10k-problem': reply(500, { detail: 'boom' }) });
    renderBox();
    const box = screen.getByRole('combobox');
    await userEvent.type(box, 'zebra');
    expect(await screen.findByText('One lesson could not be loaded and is not searched.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('No results');

    await userEvent.clear(box);
    await userEvent.type(box, 'herd');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringMatching(/^Thundering herdGlossary/),
      expect.stringMatching(/^Fork per connection/),
    ]);
  });

  it('counts one result in the singular', async () => {
    mockFetch(routes);
    renderBox();
    await userEvent.type(screen.getByRole('combobox'), 'sleepers');
    expect(await screen.findByRole('option', { name: /Thundering herd/ })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^1 result$/);
  });

  it('speaks Chinese: its label, where each result is, the count and what could not be searched', async () => {
    mockFetch({ ...routes, 'GET /api/lessons/02-blocking': reply(500, { detail: 'boom' }) });
    renderBox();
    await act(() => i18next.changeLanguage('zh'));
    const box = screen.getByRole('combobox', { name: '搜索课程和术语表' });
    expect(box).toHaveAttribute('placeholder', '搜索课程和术语表');
    await userEvent.type(box, 'herd');

    const list = await screen.findByRole('listbox', { name: '搜索结果' });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual([
      expect.stringMatching(/^Thundering herd第 1 课 · The C10K problem/),
      expect.stringMatching(/^Thundering herd术语表/),
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('2 条结果');
    expect(screen.getByText('有 1 节课加载失败，未纳入搜索。')).toBeInTheDocument();
  });

  it('says so when the course cannot be loaded', async () => {
    mockFetch({ 'GET /api/lessons': reply(503, { detail: 'down' }) });
    renderBox();
    await userEvent.type(screen.getByRole('combobox'), 'herd');
    await waitFor(() => {
      expect(screen.getByRole('status')).toHaveTextContent('Search could not load the course. Try again later.');
    });
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
