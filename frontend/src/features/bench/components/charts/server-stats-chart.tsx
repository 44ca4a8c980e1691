import type { ChartData, ChartDataset, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { lineLook, liveChartOptions, palette, timeAxis } from '@/lib/chart';
import { formatPercent } from '@/lib/format';

import { LIVE_LABEL, statsSeries, type ReferenceRun, type WarmupBand, type XY } from '../../lib/chart-data';
import type { StatsPoint } from '../../lib/run-state';
import { warmupBandPlugin } from '../../lib/warmup-band-plugin';

type Dataset = ChartDataset<'line', XY[]> & { id: string };

interface ServerStatsChartProps {
  stats: StatsPoint[];
  xMax: number | undefined;
  warmupBands: WarmupBand[];
  /** The recorded reference, drawn dimmer under this run. */
  reference?: ReferenceRun | null | undefined;
}

const plugins = [warmupBandPlugin];

const FIGURES: { id: 'cpu' | 'memory'; label: string; axis: string; colour: string; dash: number[] }[] = [
  { id: 'cpu', label: 'CPU (% of one core)', axis: 'y', colour: palette.blue, dash: [] },
  { id: 'memory', label: 'memory (MiB)', axis: 'memory', colour: palette.orange, dash: [8, 4] },
];

/**
 * The server container's CPU (left axis) and memory in MiB (right axis). CPU is counted as
 * `docker stats` does, 100 % per core: a server on several cores can pass 100 %. Memory is
 * the container's, page cache it can reclaim left out.
 */
export function ServerStatsChart({ stats, xMax, warmupBands, reference }: ServerStatsChartProps) {
  const theme = useChartTheme();
  const series = useMemo(() => statsSeries(stats), [stats]);
  const referenceSeries = useMemo(() => (reference ? statsSeries(reference.stats) : null), [reference]);

  const data = useMemo<ChartData<'line', XY[]>>(() => {
    const datasets: Dataset[] = FIGURES.map(({ id, label, axis, colour, dash }) => ({
      id,
      label: reference ? `${label} · ${LIVE_LABEL}` : label,
      data: series[id],
      yAxisID: axis,
      ...lineLook(colour, 'live', dash),
      pointRadius: 2,
    }));
    if (reference && referenceSeries) {
      for (const { id, label, axis, colour } of FIGURES) {
        datasets.push({
          id: `reference:${id}`,
          label: `${label} · ${reference.label}`,
          data: referenceSeries[id],
          yAxisID: axis,
          ...lineLook(colour, 'reference'),
          pointRadius: 1.5,
        });
      }
    }
    return { datasets };
  }, [series, reference, referenceSeries]);

  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      ...liveChartOptions,
      scales: {
        x: timeAxis(xMax, theme),
        y: {
          type: 'linear',
          position: 'left',
          beginAtZero: true,
          suggestedMax: 100,
          title: { display: true, text: 'CPU (% of one core)', color: theme.text },
          grid: { color: theme.grid },
          ticks: { color: theme.text },
        },
        memory: {
          type: 'linear',
          position: 'right',
          beginAtZero: true,
          title: { display: true, text: 'memory (MiB)', color: theme.text },
          grid: { drawOnChartArea: false },
          ticks: { color: theme.text },
        },
      },
      plugins: {
        warmupBand: { bands: warmupBands, textColour: theme.muted },
        tooltip: {
          callbacks: {
            label: (item) =>
              item.dataset.yAxisID === 'y'
                ? `${item.dataset.label ?? ''}: ${formatPercent(item.parsed.y ?? 0)}`
                : `${item.dataset.label ?? ''}: ${(item.parsed.y ?? 0).toFixed(1)} MiB`,
          },
        },
      },
    }),
    [xMax, warmupBands, theme],
  );

  return (
    <ChartFrame
      testId="server-stats-chart"
      title="Server CPU and memory"
      points={series.cpu.length + series.memory.length + (referenceSeries ? referenceSeries.cpu.length + referenceSeries.memory.length : 0)}
      emptyMessage="Waiting for the server’s first stats…"
      caption="CPU: 100 % is one whole core, so a server using several cores passes 100 %. Memory: the server container's, without page cache the kernel can reclaim."
    >
      <Line
        data={data}
        options={options}
        plugins={plugins}
        datasetIdKey="id"
        aria-label="Server CPU percent of one core and memory over time"
        role="img"
      />
    </ChartFrame>
  );
}
