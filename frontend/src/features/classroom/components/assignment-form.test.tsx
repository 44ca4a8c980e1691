import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';

import { zExerciseSummary } from '@/lib/api/generated/zod.gen';

import { lessonListSchema } from '@/lib/api-schemas';
import { formatDateTime, toInputValue } from '@/lib/dates';
import { i18next } from '@/lib/i18n';
import { anAssignment, exerciseList } from '@/testing/classroom-fixtures';
import { lessons } from '@/testing/fixtures';
import { mockFetch, type MockRequest } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { AssignmentForm } from './assignment-form';

const courseLessons = lessonListSchema.parse([
  ...lessons,
  { slug: '05-epoll', language: 'en', title: 'epoll', summary: 'Readiness, kept.', minutes: 25, order: 5 },
]);

const courseExercises = z.array(zExerciseSummary).parse(exerciseList);

function renderForm(exercises = courseExercises) {
  return renderWithProviders(<AssignmentForm classId="c-1" exercises={exercises} lessons={courseLessons} />);
}

describe('AssignmentForm', () => {
  it('offers the exercises under their lessons, and Assign once one is chosen', async () => {
    mockFetch({});
    renderForm();
    const select = screen.getByLabelText('Exercise');
    const groups = within(select).getAllByRole('group');
    // A lesson the course does not list (or not yet loaded) is named by its slug.
    expect(groups.map((g) => g.getAttribute('label'))).toEqual(['epoll', '04-select-and-poll', '02-blocking-servers']);
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Choose an exercise…',
      'Edge-triggered epoll: read until EAGAIN',
      'select() rewrites its arguments',
      'Reap every child',
    ]);
    const submit = screen.getByRole('button', { name: 'Assign' });
    expect(submit).toBeDisabled();
    await userEvent.selectOptions(select, 'et-drain');
    expect(submit).toBeEnabled();
  });

  it('sends the due time typed as ISO 8601 with the browser’s offset, then clears the form', async () => {
    const { calls } = mockFetch({ 'PUT /api/classes/c-1/assignments/et-drain': anAssignment({ due_at: '2030-01-01T12:00:00.000+00:00' }) });
    renderForm();
    await userEvent.selectOptions(screen.getByLabelText('Exercise'), 'et-drain');
    // Tomorrow at this time, as the browser's picker would give it (no zone).
    const tomorrow = toInputValue(new Date(Date.now() + 24 * 3600 * 1000));
    fireEvent.change(screen.getByLabelText('Due (optional)'), { target: { value: tomorrow } });
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => {
      expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    });
    const body = calls.find((c) => c.method === 'PUT')?.body as { due_at: string };
    expect(body.due_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(body.due_at)).toBe(new Date(tomorrow).getTime());
    await waitFor(() => {
      expect(screen.getByLabelText('Due (optional)')).toHaveValue('');
    });
    expect(screen.getByLabelText('Exercise')).toHaveValue('');
  });

  it('sends no due time when none is typed', async () => {
    const { calls } = mockFetch({ 'PUT /api/classes/c-1/assignments/reap-every-child': anAssignment({ exercise: 'reap-every-child' }) });
    renderForm();
    await userEvent.selectOptions(screen.getByLabelText('Exercise'), 'reap-every-child');
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => {
      expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{}]);
    });
  });

  it('shows the server’s sentence when the assignment is refused', async () => {
    // The API names the time it refused, as it was sent.
    mockFetch({
      'PUT /api/classes/c-1/assignments/et-drain': ({ body }: MockRequest) => ({
        status: 422,
        body: problem('due-time-passed', { due_at: (body as { due_at: string }).due_at }),
      }),
    });
    renderForm();
    await userEvent.selectOptions(screen.getByLabelText('Exercise'), 'et-drain');
    // The picker refuses a past time itself; the server has the last word (its clock, a slow submit).
    const soon = new Date(Date.now() + 60_000);
    fireEvent.change(screen.getByLabelText('Due (optional)'), { target: { value: toInputValue(soon) } });
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    expect(await screen.findByTestId('assign-error')).toHaveTextContent(
      `The due time ${formatDateTime(soon, 'en')} has passed; give a time in the future, or none.`,
    );
    expect(screen.getByLabelText('Exercise')).toHaveValue('et-drain'); // kept, to try again
  });

  it('says so when every exercise is assigned', () => {
    mockFetch({});
    renderForm([]);
    expect(screen.getByTestId('all-assigned')).toHaveTextContent('Every exercise of the course is assigned to this class.');
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    mockFetch({});
    await act(() => i18next.changeLanguage('zh'));
    renderForm();
    expect(screen.getByRole('form', { name: '布置练习' })).toBeInTheDocument();
    expect(screen.getByLabelText('截止时间（可选）')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '布置' })).toBeDisabled();
  });
});
