import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { formatDateTime, toInputValue } from '@/lib/dates';
import { i18next } from '@/lib/i18n';
import { anAssignment } from '@/testing/classroom-fixtures';
import { mockFetch, type MockRequest } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { assignmentSchema } from '../lib/classroom-schemas';

import { AssignmentList } from './assignment-list';

const TITLE = 'Edge-triggered epoll: read until EAGAIN';
const PUT = 'PUT /api/classes/c-1/assignments/et-drain';
// An hour from now, whole minutes: what the list holds and the picker shows.
const DUE = new Date(Math.ceil((Date.now() + 3600_000) / 60_000) * 60_000);

function renderList(dueAt: string | null) {
  const assignments = [assignmentSchema.parse(anAssignment({ due_at: dueAt }))];
  return renderWithProviders(<AssignmentList classId="c-1" assignments={assignments} live />);
}

function puts(calls: { method: string; body: unknown }[]): unknown[] {
  return calls.filter((c) => c.method === 'PUT').map((c) => c.body);
}

async function openEditor(): Promise<HTMLElement> {
  const change = screen.getByRole('button', { name: `Change due time of ${TITLE}` });
  expect(change).toHaveAttribute('aria-expanded', 'false');
  await userEvent.click(change);
  expect(change).toHaveAttribute('aria-expanded', 'true');
  return screen.getByRole('form', { name: `The due time of ${TITLE}` });
}

describe('DueEditor', () => {
  it('opens prefilled with the current due time, and sends the new one with the browser’s offset', async () => {
    const { calls } = mockFetch({ [PUT]: anAssignment({ due_at: '2030-01-01T12:00:00.000+00:00' }) });
    renderList(DUE.toISOString());
    expect(screen.queryByTestId('due-editor')).not.toBeInTheDocument();
    const form = await openEditor();
    const field = within(form).getByLabelText('New due time');
    expect(field).toHaveValue(toInputValue(DUE));
    expect(field).toHaveFocus();
    expect(within(form).getByText(/^In your time zone \(.+\)\. Leave it empty for no due time\./)).toBeInTheDocument();

    const tomorrow = toInputValue(new Date(Date.now() + 24 * 3600 * 1000));
    fireEvent.change(field, { target: { value: tomorrow } });
    await userEvent.click(within(form).getByRole('button', { name: `Save the due time of ${TITLE}` }));
    await waitFor(() => {
      expect(screen.queryByTestId('due-editor')).not.toBeInTheDocument();
    });
    const bodies = puts(calls) as { due_at: string }[];
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.due_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(bodies[0]!.due_at)).toBe(new Date(tomorrow).getTime());
    // Focus goes back to the button that opened the form.
    expect(screen.getByRole('button', { name: `Change due time of ${TITLE}` })).toHaveFocus();
  });

  it('sends no due time for “No due time”, and for an emptied field', async () => {
    const { calls } = mockFetch({ [PUT]: anAssignment() });
    renderList(DUE.toISOString());
    await userEvent.click(within(await openEditor()).getByRole('button', { name: `No due time for ${TITLE}` }));
    await waitFor(() => {
      expect(screen.queryByTestId('due-editor')).not.toBeInTheDocument();
    });
    expect(puts(calls)).toEqual([{}]);

    const form = await openEditor();
    fireEvent.change(within(form).getByLabelText('New due time'), { target: { value: '' } });
    await userEvent.click(within(form).getByRole('button', { name: `Save the due time of ${TITLE}` }));
    await waitFor(() => {
      expect(puts(calls)).toEqual([{}, {}]);
    });
  });

  it('opens empty with no “No due time” when there is none', async () => {
    mockFetch({});
    renderList(null);
    const form = await openEditor();
    expect(within(form).getByLabelText('New due time')).toHaveValue('');
    expect(within(form).queryByRole('button', { name: `No due time for ${TITLE}` })).not.toBeInTheDocument();
  });

  it('shows the server’s sentence when the time is refused, and stays open', async () => {
    // The API names the time it refused, as it was sent.
    const { calls } = mockFetch({
      [PUT]: ({ body }: MockRequest) => ({ status: 422, body: problem('due-time-passed', { due_at: (body as { due_at: string }).due_at }) }),
    });
    renderList(null);
    const form = await openEditor();
    const soon = toInputValue(new Date(Date.now() + 60_000));
    fireEvent.change(within(form).getByLabelText('New due time'), { target: { value: soon } });
    await userEvent.click(within(form).getByRole('button', { name: `Save the due time of ${TITLE}` }));
    expect(await within(form).findByTestId('due-error')).toHaveTextContent(
      `The due time ${formatDateTime(new Date(soon), 'en')} has passed; give a time in the future, or none.`,
    );
    expect(puts(calls)).toHaveLength(1);
    expect(within(form).getByLabelText('New due time')).toHaveValue(soon); // kept, to try again
  });

  it('closes on Cancel without a request', async () => {
    const { calls } = mockFetch({});
    renderList(DUE.toISOString());
    const form = await openEditor();
    fireEvent.change(within(form).getByLabelText('New due time'), { target: { value: '' } });
    await userEvent.click(within(form).getByRole('button', { name: `Cancel changing the due time of ${TITLE}` }));
    expect(screen.queryByTestId('due-editor')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
    // Opened again, it shows the due time as it is, not what was typed before.
    expect(within(await openEditor()).getByLabelText('New due time')).toHaveValue(toInputValue(DUE));
  });

  it('is not offered once the class has ended', () => {
    mockFetch({});
    const assignments = [assignmentSchema.parse(anAssignment({ due_at: DUE.toISOString() }))];
    renderWithProviders(<AssignmentList classId="c-1" assignments={assignments} live={false} />);
    expect(screen.queryByRole('button', { name: `Change due time of ${TITLE}` })).not.toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    mockFetch({});
    await act(() => i18next.changeLanguage('zh'));
    renderList(DUE.toISOString());
    await userEvent.click(screen.getByRole('button', { name: `修改“${TITLE}”的截止时间` }));
    const form = screen.getByRole('form', { name: `“${TITLE}”的截止时间` });
    expect(within(form).getByLabelText('新的截止时间')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: `保存“${TITLE}”的截止时间` })).toHaveTextContent('保存');
    expect(within(form).getByRole('button', { name: `“${TITLE}”不设截止时间` })).toHaveTextContent('不设截止时间');
    expect(within(form).getByRole('button', { name: `取消修改“${TITLE}”的截止时间` })).toHaveTextContent('取消');
  });
});
