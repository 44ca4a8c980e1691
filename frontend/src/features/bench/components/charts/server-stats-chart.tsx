import type { ChartData } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { LineCanvas } from '@/components/line-canvas';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { overTimeOptions, palette } from '@/lib/chart';
import { formatPercent } from '@/lib/format';

import { statsSeries, type ReferenceRun, type WarmupBand, type XY } from '../../lib/chart-data';
import type { StatsPoint } from '../../lib/run-state';
import { warmupBandPlugin } from '../../lib/warmup-band-plugin';

import { liveLines } from './live-lines';

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
  { id: 'cpu', label: 'chart.stats.cpu', yAxisID: 'y', colour: palette.blue },
  { id: 'memory', label: 'chart.stats.memory', yAxisID: 'memory', colour: palette.orange, dash: [8, 4] },
] as const;

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
    const figures = FIGURES.map(({ label, ...figure }) => ({ ...figure, name: t(label) }));
    return { datasets: liveLines(figures, series, reference, referenceSeries, { pointRadius: 2, liveWord: t('chart.live') }) };
  }, [series, reference, referenceSeries, t]);

  const options = useMemo(
    () =>
      overTimeOptions(xMax, theme, {
        scales: {
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
      <LineCanvas data={data} options={options} plugins={plugins} label={t('chart.stats.label')} />
    </ChartFrame>
  );
}
