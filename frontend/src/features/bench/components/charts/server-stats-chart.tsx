import type { ChartData, ChartDataset, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import { gridColor, liveChartOptions, palette, timeAxis } from '@/lib/chart';

import { statsSeries, type WarmupBand, type XY } from '../../lib/chart-data';
import type { StatsPoint } from '../../lib/run-state';
import { warmupBandPlugin } from '../../lib/warmup-band-plugin';

type Dataset = ChartDataset<'line', XY[]> & { id: string };

interface ServerStatsChartProps {
  stats: StatsPoint[];
  xMax: number | undefined;
  warmupBands: WarmupBand[];
}

const plugins = [warmupBandPlugin];

/** The server container's CPU % (left axis) and memory in MiB (right axis). */
export function ServerStatsChart({ stats, xMax, warmupBands }: ServerStatsChartProps) {
  const series = useMemo(() => statsSeries(stats), [stats]);

  const data = useMemo<ChartData<'line', XY[]>>(() => {
    const datasets: Dataset[] = [
      {
        id: 'cpu',
        label: 'CPU %',
        data: series.cpu,
        yAxisID: 'y',
        borderColor: palette.blue,
        backgroundColor: palette.blue,
        pointRadius: 2,
        borderWidth: 2.5,
      },
      {
        id: 'memory',
        label: 'memory (MiB)',
        data: series.memory,
        yAxisID: 'memory',
        borderColor: palette.orange,
        backgroundColor: palette.orange,
        borderDash: [2, 3],
        pointRadius: 2,
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
          position: 'left',
          beginAtZero: true,
          suggestedMax: 100,
          title: { display: true, text: 'CPU %' },
          grid: { color: gridColor },
        },
        memory: {
          type: 'linear',
          position: 'right',
          beginAtZero: true,
          title: { display: true, text: 'memory (MiB)' },
          grid: { drawOnChartArea: false },
        },
      },
      plugins: { warmupBand: { bands: warmupBands } },
    }),
    [xMax, warmupBands],
  );

  return (
    <ChartFrame
      testId="server-stats-chart"
      title="Server CPU and memory"
      points={series.cpu.length + series.memory.length}
      emptyMessage="Waiting for the server’s first stats…"
    >
      <Line
        data={data}
        options={options}
        plugins={plugins}
        datasetIdKey="id"
        aria-label="Server CPU percent and memory over time"
        role="img"
      />
    </ChartFrame>
  );
}
