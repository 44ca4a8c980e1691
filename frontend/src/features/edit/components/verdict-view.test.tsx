import { act, render, screen, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';

import type { Criterion, Verdict } from '../api/exercises';

import { VerdictView } from './verdict-view';

/** et-drain's criteria as GET /api/exercises/et-drain?lang=zh gives them. */
const chinese: Criterion[] = [
  { id: 'answers-all', kind: 'errors_at_most', value: 0, says: '每个请求都得到回复' },
  { id: 'reads', kind: 'calls_per_request_at_most', value: 12, syscall: 'read', says: '每个请求最多 12 次 read()' },
];

const failed: Verdict = {
  status: 'failed',
  reasons: ['every request is answered', 'the host disturbed this run (others took 12%): check the answer again'],
  failed: ['answers-all', 'unstable'],
  measured: [
    { id: 'answers-all', says: 'every request is answered', ok: false, value: 4, limit: 0 },
    { id: 'reads', says: 'at most 12 read() calls per request', ok: true, value: 9.01, limit: 12 },
  ],
};

describe('VerdictView', () => {
  it('says each criterion in the words of the exercise as the reader reads it', () => {
    render(<VerdictView verdict={failed} criteria={chinese} />);
    const reasons = screen.getByTestId('verdict-reasons');
    expect(within(reasons).getAllByRole('listitem')[0]).toHaveTextContent(/^每个请求都得到回复$/);
    const rows = within(screen.getByTestId('verdict-measured')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('每个请求都得到回复');
    expect(rows[2]).toHaveTextContent('每个请求最多 12 次 read()');
  });

  it('names what stopped a run in the reader’s language, with the tool’s own detail after', async () => {
    const check: Verdict = {
      status: 'failed',
      reasons: ['check echo-sizes failed: payload 3 (1000 bytes): only 512 of 1000 bytes came back'],
      failed: ['check:echo-sizes'],
      measured: [],
    };
    render(<VerdictView verdict={check} criteria={chinese} />);
    const reason = screen.getByTestId('verdict-reasons');
    expect(reason).toHaveTextContent('A correctness check failed (echo-sizes): check echo-sizes failed: payload 3');
    await act(() => i18next.changeLanguage('zh'));
    expect(reason).toHaveTextContent('正确性检查没有通过（echo-sizes）： check echo-sizes failed');
  });

  it('keeps the judge’s words where the exercise has none for a reason', () => {
    render(<VerdictView verdict={failed} />);
    const items = within(screen.getByTestId('verdict-reasons')).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(/^every request is answered$/);
    expect(items[1]).toHaveTextContent('The host disturbed the run: the host disturbed this run (others took 12%)');
  });
});
