import type { ChartData, ChartDataset, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import { gridColor, liveChartOptions, palette, timeAxis } from '@/lib/chart';
import { formatQps } from '@/lib/format';

import { plottedCount, qpsSeries, type TimeXY, type WarmupBand } from '../../lib/chart-data';
import type { ProgressPoint } from '../../lib/run-state';
import { warmupBandPlugin } from '../../lib/warmup-band-plugin';

type Dataset = ChartDataset<'line', TimeXY[]> & { id: string };

interface QpsChartProps {
  progress: ProgressPoint[];
  xMax: number | undefined;
  warmupBands: WarmupBand[];
}

const plugins = [warmupBandPlugin];

/** Requests per second over time; warm-up points are a separate, dashed grey dataset. */
export function QpsChart({ progress, xMax, warmupBands }: QpsChartProps) {
  const series = useMemo(() => qpsSeries(progress), [progress]);

  const data = useMemo<ChartData<'line', TimeXY[]>>(() => {
    const datasets: Dataset[] = [
      {
        id: 'warm-up',
        label: 'warm-up',
        data: series.warmup,
        borderColor: palette.grey,
        backgroundColor: palette.grey,
        borderDash: [6, 4],
        pointStyle: 'rectRot',
        pointRadius: 4,
        borderWidth: 2,
      },
      {
        id: 'measure',
        label: 'measured',
        data: series.measure,
        borderColor: palette.blue,
        backgroundColor: palette.blue,
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
        y: {
          type: 'linear',
          beginAtZero: true,
          title: { display: true, text: 'requests / s' },
          grid: { color: gridColor },
          ticks: { callback: (value) => formatQps(Number(value)) },
        },
      },
      plugins: {
        tooltip: {
          callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatQps(item.parsed.y ?? 0)} req/s` },
        },
        warmupBand: { bands: warmupBands },
      },
    }),
    [xMax, warmupBands],
  );

  const points = plottedCount(series.warmup, series.measure);
  return (
    <ChartFrame testId="qps-chart" title="Throughput (QPS)" points={points} emptyMessage="Waiting for the first interval…">
      <Line
        data={data}
        options={options}
        plugins={plugins}
        datasetIdKey="id"
        aria-label="Requests per second over time"
        role="img"
      />
    </ChartFrame>
  );
}
