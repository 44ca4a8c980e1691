import { act, screen, waitFor, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { anAssignment, aGradeCell } from '@/testing/classroom-fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { AssignedExercises } from './assigned-exercises';

const HOUR = 3600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A student's three assignments: one passed, one failed and past its due time, one not tried. */
const mine = [
  anAssignment({
    exercise: 'select-value-result',
    title: 'select() rewrites its arguments',
    due_at: at(-HOUR),
    mine: aGradeCell({ exercise: 'select-value-result', status: 'passed', attempts: 1, last_variant_id: 'v-1' }),
  }),
  anAssignment({ due_at: at(-HOUR), mine: aGradeCell({ status: 'failed', attempts: 2, last_variant_id: 'v-3' }) }),
  anAssignment({ exercise: 'reap-every-child', title: 'Reap every child', due_at: null, mine: aGradeCell({ exercise: 'reap-every-child' }) }),
];

describe('AssignedExercises', () => {
  it('lists what the instructor assigned: a link to each, its due time, the student’s status and attempts', async () => {
    mockFetch({ 'GET /api/classes/c-1/assignments': mine });
    renderWithProviders(<AssignedExercises classId="c-1" />);
    const section = await screen.findByRole('region', { name: 'Your assigned exercises' });
    expect(within(section).getByTestId('assigned-count')).toHaveTextContent('1 of 3 passed');
    const [passed, failed, untried] = within(section).getAllByTestId('assigned-exercise');

    expect(within(passed!).getByRole('link', { name: 'select() rewrites its arguments' })).toHaveAttribute('href', '/exercises/select-value-result');
    expect(within(passed!).getByTestId('assigned-due')).toHaveTextContent(/^was due \d+ \w+ \d{4}, \d\d:\d\d$/);
    expect(within(passed!).getByTestId('grade-status')).toHaveTextContent('✓ passed');
    expect(passed).toHaveTextContent('Your status: ✓ passed · 1 attempt');
    expect(within(passed!).queryByTestId('assigned-overdue')).not.toBeInTheDocument();

    expect(failed).toHaveAttribute('data-status', 'failed');
    expect(failed).toHaveTextContent('✗ failed · 2 attempts');
    expect(within(failed!).getByTestId('assigned-overdue')).toHaveTextContent('overdue');

    expect(within(untried!).getByTestId('assigned-due')).toHaveTextContent('no due time');
    expect(within(untried!).getByTestId('grade-status')).toHaveTextContent('○ not tried');
    expect(within(untried!).queryByTestId('assigned-attempts')).not.toBeInTheDocument();
    expect(within(untried!).queryByTestId('assigned-overdue')).not.toBeInTheDocument();
  });

  it('is not overdue before its due time', async () => {
    mockFetch({ 'GET /api/classes/c-1/assignments': [anAssignment({ due_at: at(2 * HOUR), mine: aGradeCell({ status: 'failed', attempts: 1 }) })] });
    renderWithProviders(<AssignedExercises classId="c-1" />);
    const [item] = await screen.findAllByTestId('assigned-exercise');
    expect(within(item!).getByTestId('assigned-due')).toHaveTextContent(/^due /);
    expect(within(item!).queryByTestId('assigned-overdue')).not.toBeInTheDocument();
  });

  it('shows nothing while nothing is assigned', async () => {
    const { calls } = mockFetch({ 'GET /api/classes/c-1/assignments': [] });
    const { container } = renderWithProviders(<AssignedExercises classId="c-1" />);
    await waitFor(() => {
      expect(calls).toHaveLength(1);
      expect(container).toBeEmptyDOMElement();
    });
  });

  it('says why when the list cannot be loaded', async () => {
    mockFetch({ 'GET /api/classes/c-1/assignments': reply(403, problem('other-class')) });
    renderWithProviders(<AssignedExercises classId="c-1" />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your assigned exercises could not be loaded.That is another class: you can see only your own.',
    );
  });

  it('speaks Chinese', async () => {
    mockFetch({ 'GET /api/classes/c-1/assignments': mine });
    await act(() => i18next.changeLanguage('zh'));
    renderWithProviders(<AssignedExercises classId="c-1" />);
    const section = await screen.findByRole('region', { name: '布置给你的练习' });
    expect(within(section).getByTestId('assigned-count')).toHaveTextContent('已通过 1 / 3');
    const [, failed, untried] = within(section).getAllByTestId('assigned-exercise');
    expect(failed).toHaveTextContent('你的状态：✗ 未通过 · 2 次尝试');
    expect(within(failed!).getByTestId('assigned-due')).toHaveTextContent(/^已于 \d{4}年\d+月\d+日 \d\d:\d\d 截止$/);
    expect(within(failed!).getByTestId('assigned-overdue')).toHaveTextContent('已逾期');
    expect(within(untried!).getByTestId('assigned-due')).toHaveTextContent('无截止时间');
  });
});
