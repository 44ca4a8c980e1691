import type { ChartData, ChartDataset, ChartOptions } from 'chart.js';
import { useMemo, useState } from 'react';
import { Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { latencyAxis, lineLook, liveChartOptions, palette, timeAxis } from '@/lib/chart';
import { formatLatencyUs } from '@/lib/format';

import { liveLatencySeries, plottedCount, type ReferenceRun, type TimeXY } from '../../lib/chart-data';
import type { ProgressPoint } from '../../lib/run-state';

import { LogScaleToggle } from './log-scale-toggle';

type Dataset = ChartDataset<'line', TimeXY[]> & { id: string };

interface LatencyLiveChartProps {
  progress: ProgressPoint[];
  xMax: number | undefined;
  /** The recorded reference, drawn dimmer under this run. */
  reference?: ReferenceRun | null | undefined;
}

const FIGURES = [
  { id: 'p50', colour: palette.green },
  { id: 'p99', colour: palette.vermilion },
] as const;

/** p50 and p99 of each measured interval, over time (a reference's dimmer and dotted). */
export function LatencyLiveChart({ progress, xMax, reference }: LatencyLiveChartProps) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const [log, setLog] = useState(false);
  const series = useMemo(() => liveLatencySeries(progress), [progress]);
  const referenceSeries = useMemo(() => (reference ? liveLatencySeries(reference.progress) : null), [reference]);

  const data = useMemo<ChartData<'line', TimeXY[]>>(() => {
    const datasets: Dataset[] = FIGURES.map(({ id, colour }) => ({
      id,
      label: reference ? `${id} · ${t('chart.live')}` : id,
      data: series[id],
      ...lineLook(colour, 'live'),
      pointRadius: 3,
    }));
    if (reference && referenceSeries) {
      for (const { id, colour } of FIGURES) {
        datasets.push({
          id: `reference:${id}`,
          label: `${id} · ${reference.label}`,
          data: referenceSeries[id],
          ...lineLook(colour, 'reference'),
          pointRadius: 2.5,
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
        y: latencyAxis({ log, usPerUnit: 1000, title: t('chart.latency'), theme }),
      },
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) => `${item.dataset.label ?? ''}: ${formatLatencyUs((item.parsed.y ?? 0) * 1000)}`,
          },
        },
      },
    }),
    [xMax, log, theme, t],
  );

  return (
    <ChartFrame
      testId="latency-live-chart"
      title={t('chart.liveLatency.title')}
      points={plottedCount(series.p50, series.p99, referenceSeries?.p50 ?? [], referenceSeries?.p99 ?? [])}
      emptyMessage={t('chart.shownWhenMeasuring')}
      controls={<LogScaleToggle checked={log} onChange={setLog} />}
    >
      <Line data={data} options={options} datasetIdKey="id" aria-label={t('chart.liveLatency.label')} role="img" />
    </ChartFrame>
  );
}
