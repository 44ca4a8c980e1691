import { act, screen } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { GlossaryPage } from './glossary-page';

describe('GlossaryPage', () => {
  it('renders the terms with links to their lessons', async () => {
    mockFetch({
      'GET /api/glossary': {
        title: 'Glossary',
        language: 'en',
        summary: 'The terms.',
        markdown: '### FD_SETSIZE\n\n1,024: glibc\'s limit. [Lesson 4](lessons/04-select-and-poll.md).\n',
        terms: ['FD_SETSIZE'],
      },
    });
    renderWithProviders(<GlossaryPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Glossary' })).toBeInTheDocument();
    expect(screen.getByText('1 term')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'FD_SETSIZE' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Lesson 4' })).toHaveAttribute('href', '/lessons/04-select-and-poll');
  });

  it('counts its terms in English plural and in Chinese', async () => {
    mockFetch({
      'GET /api/glossary': {
        title: 'Glossary',
        language: 'en',
        summary: 'The terms.',
        markdown: '### Backlog\n\nA queue.\n\n### Backpressure\n\nSlowing a sender.\n',
        terms: ['Backlog', 'Backpressure'],
      },
    });
    renderWithProviders(<GlossaryPage />);
    expect(await screen.findByText('2 terms')).toBeInTheDocument();
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByText('共 2 个术语')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '全部课程' })).toHaveAttribute('href', '/');
  });

  it('says so in Chinese when the glossary cannot be loaded', async () => {
    mockFetch({});
    renderWithProviders(<GlossaryPage />);
    await act(() => i18next.changeLanguage('zh'));
    expect(await screen.findByText('术语表加载失败。')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← 返回全部课程' })).toBeInTheDocument();
  });

  it('says so when the glossary cannot be loaded', async () => {
    mockFetch({});
    renderWithProviders(<GlossaryPage />);
    expect(await screen.findByText('The glossary could not be loaded.')).toBeInTheDocument();
  });
});
