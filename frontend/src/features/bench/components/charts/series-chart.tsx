import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Bar, Line } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import type { SweepPoint } from '@/lib/api-schemas';
import { ChartJS, gridColor, palette, valueAxis } from '@/lib/chart';
import { formatInt, formatLatencyUs, formatQps } from '@/lib/format';

import type { SweepRequest } from '../../lib/experiment-block';
import { seriesLines, variesValue, wantsLogAxis, type SeriesMetric } from '../../lib/series';

const COLOURS = [palette.blue, palette.vermilion, palette.green, palette.orange, palette.purple, palette.sky, palette.ink, palette.grey];

const METRIC: Record<SeriesMetric, { title: string; axis: string; format: (v: number) => string }> = {
  qps: { title: 'Throughput (QPS)', axis: 'requests / s', format: formatQps },
  p99_us: { title: 'p99 latency', axis: 'p99 latency', format: formatLatencyUs },
  calls_per_request: { title: 'System calls per request', axis: 'calls / request', format: (v) => v.toFixed(2) },
};

interface SeriesChartProps {
  sweep: SweepRequest;
  points: SweepPoint[];
  metric: SeriesMetric;
  testId: string;
}

/** A disturbed run's figure is drawn hollow (and a triangle on a line), and its tooltip says so. */
const UNSTABLE_NOTE = ' (unstable: disturbed while measured)';
const HOLLOW = 'rgba(255, 255, 255, 0)';

/** One series per server: a line over the varied value, or one bar each when nothing varies. */
export function SeriesChart({ sweep, points, metric, testId }: SeriesChartProps) {
  const lines = useMemo(() => seriesLines(sweep, points, metric), [sweep, points, metric]);
  const plotted = lines.reduce((n, line) => n + line.values.filter((v) => v !== null).length, 0);
  const { title, axis, format } = METRIC[metric];
  const yAxis = valueAxis(axis, format);

  const lineData = useMemo<ChartData<'line', { x: number; y: number | null }[]>>(
    () => ({
      datasets: lines.map((line, i) => ({
        label: line.server,
        data: sweep.values.map((x, j) => ({ x, y: line.values[j] ?? null })),
        borderColor: COLOURS[i % COLOURS.length],
        backgroundColor: COLOURS[i % COLOURS.length],
        pointStyle: line.unstable.map((u) => (u ? 'triangle' : 'circle')),
        pointBackgroundColor: line.unstable.map((u) => (u ? HOLLOW : COLOURS[i % COLOURS.length])),
        pointRadius: line.unstable.map((u) => (u ? 6 : 4)),
        borderWidth: 2.5,
        spanGaps: false,
      })),
    }),
    [lines, sweep.values],
  );
  const lineOptions = useMemo<ChartOptions<'line'>>(
    () => ({
      animation: false,
      scales: {
        x: {
          type: wantsLogAxis(sweep.values) ? 'logarithmic' : 'linear',
          title: { display: true, text: sweep.vary.replaceAll('_', ' ') },
          grid: { color: gridColor },
          ticks: { callback: (value) => formatInt(Number(value)) },
        },
        y: yAxis,
      },
      plugins: {
        // The legend draws each server's first point; keep it a filled circle even when that
        // point is an unstable (hollow triangle) one.
        legend: {
          labels: {
            generateLabels: (chart) =>
              ChartJS.defaults.plugins.legend.labels
                .generateLabels(chart)
                .map((label) => ({ ...label, pointStyle: 'circle', fillStyle: label.strokeStyle })),
          },
        },
        tooltip: {
          callbacks: {
            label: (item) =>
              `${item.dataset.label ?? ''}: ${format(item.parsed.y ?? 0)}${
                lines[item.datasetIndex]?.unstable[item.dataIndex] ? UNSTABLE_NOTE : ''
              }`,
          },
        },
      },
    }),
    // yAxis and format follow from metric.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [sweep.values, sweep.vary, metric, lines],
  );

  const barData = useMemo<ChartData<'bar', (number | null)[], string>>(
    () => ({
      labels: lines.map((line) => line.server),
      datasets: [
        {
          label: title,
          data: lines.map((line) => line.values[0] ?? null),
          backgroundColor: lines.map((line, i) => (line.unstable[0] ? HOLLOW : COLOURS[i % COLOURS.length])),
          borderColor: lines.map((_, i) => COLOURS[i % COLOURS.length]),
          borderWidth: 2,
        },
      ],
    }),
    [lines, title],
  );
  const barOptions = useMemo<ChartOptions<'bar'>>(
    () => ({
      animation: false,
      scales: { y: yAxis },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            label: (item) => `${format(item.parsed.y ?? 0)}${lines[item.dataIndex]?.unstable[0] ? UNSTABLE_NOTE : ''}`,
          },
        },
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metric, lines],
  );

  return (
    <ChartFrame testId={testId} title={title} points={plotted} emptyMessage="Waiting for the first finished run…">
      {variesValue(sweep) ? (
        <Line data={lineData} options={lineOptions} aria-label={`${title} by ${sweep.vary}`} role="img" />
      ) : (
        <Bar data={barData} options={barOptions} aria-label={`${title} by server`} role="img" />
      )}
    </ChartFrame>
  );
}
