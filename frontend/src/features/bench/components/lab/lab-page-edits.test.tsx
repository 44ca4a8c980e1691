import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';
import { aVariant, healthyHealth, labFields, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';
import { renderWithProviders } from '@/testing/render';

import { LabPage } from './lab-page';

// The learner's own edits in the lab: "Open in lab" from the history of an edit's benchmark or
// an exercise's check (`variant:<id>` among the servers, as POST /api/sweeps takes them).
const MINE = 'a'.repeat(32);
const THEIRS = 'b'.repeat(32);
const ADAS = 'c'.repeat(32);

function api() {
  return mockFetch({
    'GET /api/health': healthyHealth,
    'GET /api/servers': servers,
    'GET /api/lab/fields': labFields,
    'GET /api/exercises?lang=en': [{ slug: 'et-drain', title: 'Edge-triggered epoll', lesson: '05-epoll', server: 'c-epoll', summary: 's' }],
    [`GET /api/variants/${MINE}`]: aVariant({ id: MINE, exercise: 'et-drain', created_at: '2026-11-25T09:43:00Z' }),
    [`GET /api/variants/${THEIRS}`]: reply(403, problem('variant-not-yours')),
    [`GET /api/variants/${ADAS}`]: aVariant({ id: ADAS, owner_id: 'p-ada', owner: { mine: false, name: 'Ada', instructor: false } }),
    'POST /api/runs': reply(202, { id: 'r1', status: 'queued', position: 1, wait_s: 0 }),
    'POST /api/sweeps': reply(202, { id: 's1', points: 2, skipped: 0 }),
  });
}

describe('LabPage with the learner’s edits', () => {
  it('runs an answer alone as a run of its server with `variant`, named in words', async () => {
    const { calls } = api();
    renderWithProviders(<LabPage />, { route: `/lab?servers=variant%3A${MINE}&connections=20` });
    const picker = await screen.findByTestId('lab-servers');
    const mine = within(picker).getByRole('checkbox', { name: /^your answer to Edge-triggered epoll \(saved .*\) variant:aaaaaaaa…$/ });
    expect(mine).toBeChecked();
    expect(within(picker).getByRole('link', { name: `Edit variant:${MINE}` })).toHaveAttribute('href', `/variants/${MINE}`);
    const run = screen.getByRole('button', { name: /^Run/ });
    await waitFor(() => {
      expect(run).toBeEnabled();
    });
    await userEvent.click(run);
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ server: 'c-epoll', variant: MINE, connections: 20 });
    });
  });

  it('compares an edit with its original as one sweep naming the edit', async () => {
    const { calls } = api();
    renderWithProviders(<LabPage />, { route: `/lab?servers=c-epoll%2Cvariant%3A${MINE}&connections=20` });
    const run = await screen.findByRole('button', { name: /^Run 2/ });
    await waitFor(() => {
      expect(run).toBeEnabled();
    });
    await userEvent.click(run);
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ servers: ['c-epoll', `variant:${MINE}`], vary: 'connections', values: [20], base: {} });
    });
  });

  it('names a classmate’s edit shared in the class as theirs, not the learner’s', async () => {
    api();
    renderWithProviders(<LabPage />, { route: `/lab?servers=c-epoll%2Cvariant%3A${ADAS}` });
    const picker = await screen.findByTestId('lab-servers');
    expect(await within(picker).findByRole('checkbox', { name: /^Ada's edit of c-epoll \(saved .*\) variant:cccccccc…$/ })).toBeChecked();
    expect(picker).not.toHaveTextContent(/your edit/);
    // only its author may run it: said before Run, which stays off until it is removed
    expect(await within(picker).findByText(/^Ada's edit of c-epoll .* is not yours: only its author can run it/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Run/ })).toBeDisabled();
  });

  it('says why an edit that is not the learner’s cannot run, in their language', async () => {
    api();
    renderWithProviders(<LabPage />, { route: `/lab?servers=variant%3A${THEIRS}` });
    const picker = await screen.findByTestId('lab-servers');
    expect(picker).toHaveTextContent(/Your edit bbbbbbbb… cannot be opened here: .*belongs to someone else/);
    expect(screen.getByRole('button', { name: /^Run/ })).toBeDisabled();
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(picker).toHaveTextContent('你的修改 bbbbbbbb… 无法在这里打开');
  });
});
