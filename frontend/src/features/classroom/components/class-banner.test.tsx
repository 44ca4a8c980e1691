import { act, screen } from '@testing-library/react';

import { classSchema } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aClassroomClass } from '@/testing/classroom-fixtures';
import { renderWithProviders } from '@/testing/render';

import { ClassBanner } from './class-banner';

const klass = (overrides: Record<string, unknown> = {}) => classSchema.parse(aClassroomClass(overrides));

describe('ClassBanner', () => {
  it('names the class, links its board, and says when runs are paused', () => {
    const { rerender } = renderWithProviders(<ClassBanner klass={klass()} ended={false} />);
    expect(screen.getByTestId('class-banner')).toHaveTextContent('You are in Systems, Tuesday');
    expect(screen.getByRole('link', { name: 'Class board' })).toHaveAttribute('href', '/classes/c-1/board');
    expect(screen.queryByTestId('class-paused')).not.toBeInTheDocument();
    rerender(<ClassBanner klass={klass({ paused: true })} ended={false} />);
    expect(screen.getByTestId('class-paused')).toHaveTextContent('Runs are paused by your instructor');
  });

  it('says the class has ended, until when its results stay readable, and offers them; nothing before the stream has sent the class', () => {
    const { rerender } = renderWithProviders(<ClassBanner klass={null} ended={false} />);
    expect(screen.queryByTestId('class-banner')).not.toBeInTheDocument();
    const ended = klass({ ended_at: '2026-11-24T10:00:00+00:00', results_until: '2026-12-01T10:00:00+00:00' });
    rerender(<ClassBanner klass={ended} ended />);
    const banner = screen.getByTestId('class-banner');
    expect(banner).toHaveTextContent('Systems, Tuesday has ended.');
    expect(banner).toHaveTextContent(/stay readable until 1 Dec 2026, \d\d:\d\d; nothing new runs/);
    // Read-only: the board and one's own runs stay within reach.
    expect(screen.getByRole('link', { name: 'Class board' })).toHaveAttribute('href', '/classes/c-1/board');
    expect(screen.getByTestId('my-results-csv')).toHaveAttribute('href', '/api/progress/results.csv');
  });

  it('speaks Chinese, the class’s name still in bold and never read as markup', async () => {
    await act(() => i18next.changeLanguage('zh'));
    renderWithProviders(<ClassBanner klass={klass({ name: 'Systems <b>2</b>', paused: true })} ended={false} />);
    const banner = screen.getByRole('region', { name: '你的班级' });
    expect(banner).toHaveTextContent('当前班级：Systems <b>2</b>');
    expect(banner.querySelector('strong')).toHaveTextContent('Systems <b>2</b>');
    expect(banner.querySelector('b')).toBeNull();
    expect(screen.getByRole('link', { name: '班级看板' })).toHaveAttribute('href', '/classes/c-1/board');
    expect(screen.getByTestId('class-paused')).toHaveTextContent('讲师已暂停运行');
  });
});
