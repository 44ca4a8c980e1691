import { act, screen, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { gradebook } from '@/testing/classroom-fixtures';
import { renderWithProviders } from '@/testing/render';

import { gradebookSchema } from '../lib/classroom-schemas';

import { GradebookTable } from './gradebook-table';

const book = gradebookSchema.parse(gradebook);

/** A cell's lines, as a screen reader would read them one after the other. */
const cellText = (cell: HTMLElement) => cell.textContent.replace(/\d{2}:\d{2}/g, 'hh:mm');

describe('GradebookTable', () => {
  it('is a table: captioned, a column per assignment, a row per student headed by their name', () => {
    renderWithProviders(<GradebookTable gradebook={book} />);
    const table = screen.getByRole('table', { name: /Each student’s answers to each assigned exercise/ });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual([
      'Student',
      'Edge-triggered epoll: read until EAGAIN',
      'select() rewrites its arguments',
      'Passed',
    ]);
    expect(headers.every((h) => h.getAttribute('scope') === 'col')).toBe(true);
    const rowHeaders = within(table).getAllByRole('rowheader');
    expect(rowHeaders.map((h) => [h.textContent, h.getAttribute('scope')])).toEqual([
      ['Ada', 'row'],
      ['Linus', 'row'],
    ]);
  });

  it('shows each cell’s status in a word and a symbol, the attempts, when, late, why, and the newest answer', () => {
    renderWithProviders(<GradebookTable gradebook={book} />);
    const [ada, linus] = screen.getAllByTestId('gradebook-row');
    const [failed, passed] = within(ada!).getAllByTestId('grade-cell');
    expect(failed).toHaveAttribute('data-status', 'failed');
    expect(cellText(failed!)).toBe('✗ failed2 attemptslast sent 24 Nov, hh:mmfailed: check:echonewest answer');
    expect(within(failed!).getByRole('link', { name: 'Ada’s newest answer to Edge-triggered epoll: read until EAGAIN' })).toHaveAttribute(
      'href',
      '/variants/v-ada-2',
    );
    expect(passed).toHaveAttribute('data-status', 'passed');
    expect(cellText(passed!)).toBe('✓ passedlate1 attemptlast sent 24 Nov, hh:mmnewest answer');
    expect(within(passed!).getByTestId('grade-late')).toHaveAttribute('title', 'Passed after the due time');
    expect(within(passed!).getByRole('link', { name: /newest answer/ })).toHaveAttribute('href', '/variants/v-ada-3');
    // The symbol is for the eye: a screen reader hears the word.
    expect(within(passed!).getByText('✓')).toHaveAttribute('aria-hidden', 'true');
    expect(within(ada!).getByTestId('gradebook-passed')).toHaveTextContent('1 / 2');

    const linusCells = within(linus!).getAllByTestId('grade-cell');
    expect(linusCells.map((c) => c.textContent)).toEqual(['○ not tried', '○ not tried']);
    expect(within(linus!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(linus!).getByTestId('gradebook-passed')).toHaveTextContent('0 / 2');
  });

  it('says so when nobody has joined', () => {
    renderWithProviders(<GradebookTable gradebook={{ ...book, students: [] }} />);
    expect(screen.getByTestId('gradebook-empty')).toHaveTextContent('Nobody has joined yet');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    await act(() => i18next.changeLanguage('zh'));
    renderWithProviders(<GradebookTable gradebook={book} />);
    const [ada] = screen.getAllByTestId('gradebook-row');
    const [failed, passed] = within(ada!).getAllByTestId('grade-cell');
    expect(cellText(failed!)).toBe('✗ 未通过2 次尝试最近提交于 11月24日 hh:mm未通过：check:echo最新答案');
    expect(cellText(passed!)).toBe('✓ 通过逾期1 次尝试最近提交于 11月24日 hh:mm最新答案');
    expect(within(failed!).getByRole('link', { name: 'Ada 对“Edge-triggered epoll: read until EAGAIN”的最新答案' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').at(-1)).toHaveTextContent('已通过');
  });
});
