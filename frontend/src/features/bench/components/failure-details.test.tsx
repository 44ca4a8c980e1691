import { act, render, screen } from '@testing-library/react';

import { i18next } from '@/lib/i18n';

import { FailureDetails } from './failure-details';

describe('FailureDetails', () => {
  it('counts the log lines in the right number', () => {
    const { rerender } = render(<FailureDetails logs={['segfault']} />);
    expect(screen.getByText('Server log (last 1 line)')).toBeInTheDocument();
    rerender(<FailureDetails logs={['listening', 'segfault']} />);
    expect(screen.getByText('Server log (last 2 lines)')).toBeInTheDocument();
  });

  it('says it in Chinese once the language is switched', async () => {
    render(<FailureDetails logs={['listening', 'segfault']} />);
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(screen.getByText('服务器日志（最后 2 行）')).toBeInTheDocument();
    // The server's own lines are shown as they came.
    expect(screen.getByTestId('failure-logs')).toHaveTextContent('segfault');
  });
});
