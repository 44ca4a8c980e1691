import type { ChartData, ChartDataset, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { lineLook, liveChartOptions, palette, timeAxis } from '@/lib/chart';
import { formatPercent } from '@/lib/format';

import { statsSeries, type ReferenceRun, type WarmupBand, type XY } from '../../lib/chart-data';
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

// Labels as keys: said in the page's language when drawn.
const FIGURES = [
  { id: 'cpu', label: 'chart.stats.cpu', axis: 'y', colour: palette.blue, dash: [] },
  { id: 'memory', label: 'chart.stats.memory', axis: 'memory', colour: palette.orange, dash: [8, 4] },
] as const satisfies readonly { id: 'cpu' | 'memory'; label: string; axis: string; colour: string; dash: readonly number[] }[];

/**
 * The server container's CPU (left axis) and memory in MiB (right axis). CPU is counted as
 * `docker stats` does, 100 % per core: a server on several cores can pass 100 %. Memory is
 * the container's, page cache it can reclaim left out.
 */
export function ServerStatsChart({ stats, xMax, warmupBands, reference }: ServerStatsChartProps) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const series = useMemo(() => statsSeries(stats), [stats]);
  const referenceSeries = useMemo(() => (reference ? statsSeries(reference.stats) : null), [reference]);

  const data = useMemo<ChartData<'line', XY[]>>(() => {
    const datasets: Dataset[] = FIGURES.map(({ id, label, axis, colour, dash }) => ({
      id,
      label: reference ? `${t(label)} · ${t('chart.live')}` : t(label),
      data: series[id],
      yAxisID: axis,
      ...lineLook(colour, 'live', [...dash]),
      pointRadius: 2,
    }));
    if (reference && referenceSeries) {
      for (const { id, label, axis, colour } of FIGURES) {
        datasets.push({
          id: `reference:${id}`,
          label: `${t(label)} · ${reference.label}`,
          data: referenceSeries[id],
          yAxisID: axis,
          ...lineLook(colour, 'reference'),
          pointRadius: 1.5,
        });
      }
    }
    return { datasets };
  }, [series, reference, referenceSeries, t]);

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
          title: { display: true, text: t('chart.stats.cpu'), color: theme.text },
          grid: { color: theme.grid },
          ticks: { color: theme.text },
        },
        memory: {
          type: 'linear',
          position: 'right',
          beginAtZero: true,
          title: { display: true, text: t('chart.stats.memory'), color: theme.text },
          grid: { drawOnChartArea: false },
          ticks: { color: theme.text },
        },
      },
      plugins: {
        warmupBand: { bands: warmupBands, label: t('chart.warmup'), textColour: theme.muted },
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
    [xMax, warmupBands, theme, t],
  );

  return (
    <ChartFrame
      testId="server-stats-chart"
      title={t('chart.stats.title')}
      points={series.cpu.length + series.memory.length + (referenceSeries ? referenceSeries.cpu.length + referenceSeries.memory.length : 0)}
      emptyMessage={t('chart.stats.empty')}
      caption={t('chart.stats.caption')}
    >
      <Line
        data={data}
        options={options}
        plugins={plugins}
        datasetIdKey="id"
        aria-label={t('chart.stats.label')}
        role="img"
      />
    </ChartFrame>
  );
}
