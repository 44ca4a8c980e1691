import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';

import { ChartFrame } from './chart-frame';

/** What the PNG was drawn with, and the file it was saved as. */
function capture() {
  const fills: string[] = [];
  const context = {
    set fillStyle(value: string) {
      fills.push(value);
    },
    font: '',
    textBaseline: '',
    fillRect: () => undefined,
    fillText: () => undefined,
    drawImage: () => undefined,
  };
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(context as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue('data:image/png;base64,AAAA');
  const saved: { name: string; href: string }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
  return { fills, saved };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ChartFrame', () => {
  it('saves its chart as <test id>.png over the theme’s surface colour', async () => {
    const { fills, saved } = capture();
    // The dark theme's colours, as global.css sets them (jsdom passes none down from :root).
    const dark = document.createElement('style');
    dark.textContent = '.chart-frame { --color-surface: #1a1e24; --color-text: #e6e8eb; }';
    document.head.append(dark);
    onTestFinished(() => {
      dark.remove();
    });
    render(
      <ChartFrame testId="qps-chart" title="Requests per second" points={3}>
        <canvas width={600} height={300} />
      </ChartFrame>,
    );
    const button = screen.getByRole('button', { name: 'Download the chart “Requests per second” as PNG' });
    await userEvent.click(button);
    expect(saved).toEqual([{ name: 'qps-chart.png', href: 'data:image/png;base64,AAAA' }]);
    expect(fills.slice(0, 2)).toEqual(['#1a1e24', '#e6e8eb']);
  });

  it('paints white when the theme sets no surface colour, and is reachable by keyboard', async () => {
    const { fills, saved } = capture();
    render(
      <ChartFrame testId="latency-chart" title="Latency" points={1}>
        <canvas />
      </ChartFrame>,
    );
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByTestId('export-png')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(saved.map((s) => s.name)).toEqual(['latency-chart.png']);
    expect(fills[0]).toBe('#ffffff');
  });

  it('names its PNG button and the lines drawn in Chinese', async () => {
    render(
      <ChartFrame testId="qps-chart" title="吞吐量" points={2} series={['c-epoll', 'c-poll']}>
        <canvas />
      </ChartFrame>,
    );
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByRole('button', { name: '将图表“吞吐量”下载为 PNG' })).toHaveTextContent('PNG');
    expect(screen.getByText('已绘制：c-epoll; c-poll。')).toBeInTheDocument();
  });

  it('has nothing to save while the chart plots nothing', () => {
    render(
      <ChartFrame testId="qps-chart" title="QPS" points={0} emptyMessage="No data yet">
        <canvas />
      </ChartFrame>,
    );
    expect(screen.getByTestId('export-png')).toBeDisabled();
  });
});
