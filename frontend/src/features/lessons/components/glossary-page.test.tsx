import { screen } from '@testing-library/react';

import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { GlossaryPage } from './glossary-page';

describe('GlossaryPage', () => {
  it('renders the terms with links to their lessons', async () => {
    mockFetch({
      'GET /api/glossary': {
        title: 'Glossary',
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

  it('says so when the glossary cannot be loaded', async () => {
    mockFetch({});
    renderWithProviders(<GlossaryPage />);
    expect(await screen.findByText('The glossary could not be loaded.')).toBeInTheDocument();
  });
});
