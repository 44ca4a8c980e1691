import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { i18next } from '@/lib/i18n';

import { ErrorBoundary } from './error-boundary';

let shouldThrow = true;
function Flaky() {
  const [n] = useState(1);
  if (shouldThrow) throw new Error('canvas exploded');
  return <p>chart {n}</p>;
}

describe('ErrorBoundary', () => {
  it('contains a crash to its widget and can retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    shouldThrow = true;
    render(
      <div>
        <p>lesson text</p>
        <ErrorBoundary name="The QPS chart">
          <Flaky />
        </ErrorBoundary>
      </div>,
    );
    expect(screen.getByText('lesson text')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The QPS chart could not be shown.');
    expect(screen.getByRole('alert')).toHaveTextContent('canvas exploded');

    shouldThrow = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('chart 1')).toBeInTheDocument();
  });

  it('says what broke in the language switched to', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    shouldThrow = true;
    render(
      <ErrorBoundary name="吞吐量图表">
        <Flaky />
      </ErrorBoundary>,
    );
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByRole('alert')).toHaveTextContent('吞吐量图表无法显示。');
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
  });
});
