import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';
import { anExportAbout } from '@/testing/fixtures';

import { ChartFrame, ChartLoading } from './chart-frame';
import { ExportAboutContext } from './export-about';

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
    scale: () => undefined,
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
    await waitFor(() => {
      expect(saved).toEqual([{ name: 'qps-chart.png', href: 'data:image/png;base64,AAAA' }]);
    });
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
    await waitFor(() => {
      expect(saved.map((s) => s.name)).toEqual(['latency-chart.png']);
    });
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
    expect(screen.getByTestId('export-svg')).toBeDisabled();
  });

  it('saves an SVG that says what the result is: its setup, host, date and link, the caption under the chart', async () => {
    capture();
    const blobs: Blob[] = [];
    // As export-menu.test.tsx does: jsdom's URL has no object URLs, or read-only ones.
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: (blob: Blob) => `blob:${blobs.push(blob)}`,
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const about = anExportAbout([
      { label: 'Connections', value: '100' },
      { label: 'CPU', value: 'AMD EPYC 7B13, 2 CPUs' },
      { label: 'Measured', value: '25 Nov 2026, 10:08 (2026-11-25T10:08:00Z)' },
    ]);
    render(
      <ExportAboutContext value={about}>
        <ChartFrame testId="qps-chart" title="Requests per second" points={3} caption="Hollow ×: unstable.">
          <canvas width={600} height={300} />
        </ChartFrame>
      </ExportAboutContext>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download the chart “Requests per second” as SVG' }));
    await waitFor(() => {
      expect(blobs).toHaveLength(1);
    });
    // jsdom's Blob has no text(): read it as a browser of old would.
    const svg = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => {
        resolve(reader.result as string);
      };
      reader.readAsText(blobs[0]!);
    });
    expect(blobs[0]!.type).toBe('image/svg+xml');
    for (const part of ['Requests per second', 'c-epoll run', 'Hollow ×: unstable.', 'Connections: 100', 'CPU: AMD EPYC 7B13, 2 CPUs', '2026-11-25T10:08:00Z', 'http://localhost:8000/#/runs/3f2a']) {
      expect(svg).toContain(part);
    }
  });
});

describe('ChartLoading', () => {
  it('keeps a chart’s place while its code loads: its frame as an empty chart’s, saying it is loading', async () => {
    render(<ChartLoading title="Server CPU and memory" caption="Sampled once a second." />);
    const place = screen.getByTestId('chart-loading');
    expect(place).toHaveClass('chart-frame');
    expect(place).toHaveAttribute('data-points', '0');
    expect(screen.getByText('Server CPU and memory')).toHaveClass('chart-frame__title');
    expect(place.querySelector('.chart-frame__canvas')).toHaveTextContent('Loading the chart…');
    expect(screen.getByText('Sampled once a second.')).toHaveClass('chart-frame__caption');
    expect(screen.getByTestId('export-png')).toBeDisabled();
    await act(() => i18next.changeLanguage('zh'));
    expect(place.querySelector('.chart-frame__canvas')).toHaveTextContent('正在加载图表…');
  });
});
