import type { ChartData, ChartDataset, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import { latencyAxis, liveChartOptions, palette, timeAxis } from '@/lib/chart';
import { formatLatencyUs } from '@/lib/format';

import { liveLatencySeries, plottedCount, type TimeXY } from '../../lib/chart-data';
import type { ProgressPoint } from '../../lib/run-state';

type Dataset = ChartDataset<'line', TimeXY[]> & { id: string };

interface LatencyLiveChartProps {
  progress: ProgressPoint[];
  xMax: number | undefined;
}

/** p50 and p99 of each measured interval, over time. */
export function LatencyLiveChart({ progress, xMax }: LatencyLiveChartProps) {
  const series = useMemo(() => liveLatencySeries(progress), [progress]);

  const data = useMemo<ChartData<'line', TimeXY[]>>(() => {
    const datasets: Dataset[] = [
      {
        id: 'p50',
        label: 'p50',
        data: series.p50,
        borderColor: palette.green,
        backgroundColor: palette.green,
        pointRadius: 3,
        borderWidth: 2.5,
      },
      {
        id: 'p99',
        label: 'p99',
        data: series.p99,
        borderColor: palette.vermilion,
        backgroundColor: palette.vermilion,
        pointRadius: 3,
        borderWidth: 2.5,
      },
    ];
    return { datasets };
  }, [series]);

  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      ...liveChartOptions,
      scales: {
        x: timeAxis(xMax),
        y: latencyAxis,
      },
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) => `${item.dataset.label ?? ''}: ${formatLatencyUs((item.parsed.y ?? 0) * 1000)}`,
          },
        },
      },
    }),
    [xMax],
  );

  return (
    <ChartFrame
      testId="latency-live-chart"
      title="Latency while measuring (p50, p99)"
      points={plottedCount(series.p50, series.p99)}
      emptyMessage="Shown once measuring starts."
    >
      <Line data={data} options={options} datasetIdKey="id" aria-label="Latency p50 and p99 over time" role="img" />
    </ChartFrame>
  );
}
