import type { ChartData, ChartDataset, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import type { Summary } from '@/lib/api-schemas';
import { gridColor, latencyAxis, liveChartOptions, palette } from '@/lib/chart';
import { formatLatencyUs } from '@/lib/format';

import {
  intervalDistribution,
  normalisePercentiles,
  percentileAxisMax,
  percentileLabel,
  PERCENTILE_TICKS,
  summaryDistribution,
  type XY,
} from '../../lib/chart-data';
import type { ProgressPoint } from '../../lib/run-state';

type Dataset = ChartDataset<'line', XY[]> & { id: string };

interface LatencyPercentileChartProps {
  progress: ProgressPoint[];
  summary: Summary | null;
}

/**
 * Latency by percentile, the HdrHistogram way: the x axis is 1/(1-p) on a log
 * scale, so 50 %, 90 %, 99 % and 99.9 % are evenly spaced and the tail is visible.
 * While measuring it shows the newest interval; when done, the whole run.
 */
export function LatencyPercentileChart({ progress, summary }: LatencyPercentileChartProps) {
  const axisMax = useMemo(
    () => (summary ? percentileAxisMax(normalisePercentiles(summary.percentiles)) : 1000),
    [summary],
  );
  const runPoints = useMemo(() => (summary ? summaryDistribution(summary, axisMax) : []), [summary, axisMax]);
  const intervalPoints = useMemo(() => (summary ? [] : intervalDistribution(progress)), [summary, progress]);

  const data = useMemo<ChartData<'line', XY[]>>(() => {
    const datasets: Dataset[] = [
      {
        id: 'interval',
        label: 'latest interval',
        data: intervalPoints,
        borderColor: palette.orange,
        backgroundColor: palette.orange,
        borderDash: [5, 4],
        pointRadius: 4,
        borderWidth: 2,
      },
      {
        id: 'run',
        label: 'whole run',
        data: runPoints,
        borderColor: palette.purple,
        backgroundColor: palette.purple,
        pointRadius: runPoints.length > 30 ? 0 : 3,
        borderWidth: 2.5,
        stepped: false,
      },
    ];
    return { datasets };
  }, [intervalPoints, runPoints]);

  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      ...liveChartOptions,
      scales: {
        x: {
          type: 'logarithmic',
          min: 1,
          max: axisMax,
          title: { display: true, text: 'percentile' },
          grid: { color: gridColor },
          afterBuildTicks: (axis) => {
            axis.ticks = PERCENTILE_TICKS.filter((t) => t.x <= axisMax).map((t) => ({ value: t.x }));
          },
          ticks: {
            autoSkip: false,
            maxRotation: 0,
            callback: (value) => percentileLabel(Number(value)),
          },
        },
        y: latencyAxis,
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? `${percentileLabel(items[0].parsed.x ?? 1)} of requests within` : ''),
            label: (item) => `${item.dataset.label ?? ''}: ${formatLatencyUs((item.parsed.y ?? 0) * 1000)}`,
          },
        },
      },
    }),
    [axisMax],
  );

  return (
    <ChartFrame
      testId="latency-chart"
      title="Latency by percentile"
      points={intervalPoints.length + runPoints.length}
      emptyMessage="Shown once measuring starts."
    >
      <Line data={data} options={options} datasetIdKey="id" aria-label="Latency by percentile" role="img" />
    </ChartFrame>
  );
}
