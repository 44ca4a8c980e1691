import type { ChartData, ChartDataset, PointStyle } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { LineCanvas } from '@/components/line-canvas';
import { useChartTheme } from '@/hooks/use-chart-theme';
import type { DoneEvent } from '@/lib/api-schemas';
import {
  legendShowsSeriesStyle,
  lineLook,
  overTimeOptions,
  palette,
  pointMarks,
  unstableCaption,
  valueAxis,
} from '@/lib/chart';
import { formatQps } from '@/lib/format';

import {
  driftedTimes,
  plottedCount,
  qpsSeries,
  type ReferenceRun,
  type TimeXY,
  type WarmupBand,
} from '../../lib/chart-data';
import type { ProgressPoint } from '../../lib/run-state';
import { warmupBandPlugin } from '../../lib/warmup-band-plugin';

type Dataset = ChartDataset<'line', TimeXY[]> & { id: string; legendPointStyle?: PointStyle };

interface QpsChartProps {
  progress: ProgressPoint[];
  xMax: number | undefined;
  warmupBands: WarmupBand[];
  /** The run's result, once done: the intervals its drift check found off the median are marked. */
  result?: DoneEvent | null | undefined;
  /** The recorded reference, drawn dimmer under this run. */
  reference?: ReferenceRun | null | undefined;
}

const plugins = [warmupBandPlugin];

/** Marks the measured points whose interval drifted off the run's median throughput. */
function driftMarks(points: TimeXY[], drifted: Set<number>, radius: number) {
  return pointMarks(
    points.map((p) => p.y !== null && drifted.has(p.x)),
    { pointStyle: 'circle', radius },
  );
}

/** Requests per second over time; warm-up points are a separate, dashed grey dataset. Over a
 *  recorded reference, the reference's measured intervals are drawn dimmer and dotted. */
export function QpsChart({ progress, xMax, warmupBands, result, reference }: QpsChartProps) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const series = useMemo(() => qpsSeries(progress), [progress]);
  const referenceSeries = useMemo(() => (reference ? qpsSeries(reference.progress).measure : null), [reference]);
  const drifted = useMemo(() => driftedTimes(result), [result]);
  const referenceDrifted = useMemo(() => driftedTimes(reference?.result), [reference]);
  const marked = drifted.size + referenceDrifted.size > 0;

  const data = useMemo<ChartData<'line', TimeXY[]>>(() => {
    const own = (figure: string) => (reference ? `${figure} · ${t('chart.live')}` : figure);
    const datasets: Dataset[] = [
      {
        id: 'warm-up',
        label: own(t('chart.warmup')),
        data: series.warmup,
        ...lineLook(palette.grey, 'live', [6, 4]),
        borderWidth: 2,
        pointStyle: 'rectRot',
        pointRadius: 4,
      },
      {
        id: 'measure',
        label: own(t('chart.measured')),
        data: series.measure,
        ...lineLook(palette.blue, 'live'),
        ...driftMarks(series.measure, drifted, 3),
        legendPointStyle: 'circle',
      },
    ];
    if (reference && referenceSeries) {
      datasets.push({
        id: 'reference:measure',
        label: `${t('chart.measured')} · ${reference.label}`,
        data: referenceSeries,
        ...lineLook(palette.blue, 'reference'),
        ...driftMarks(referenceSeries, referenceDrifted, 2.5),
        legendPointStyle: 'circle',
      });
    }
    return { datasets };
  }, [series, reference, referenceSeries, drifted, referenceDrifted, t]);

  const options = useMemo(
    () =>
      overTimeOptions(xMax, theme, {
        scales: { y: valueAxis(t('chart.requestsPerSecond'), formatQps, theme) },
        plugins: {
          legend: legendShowsSeriesStyle,
          tooltip: {
            callbacks: {
              label: (item) => {
                const values = { label: item.dataset.label ?? '', qps: formatQps(item.parsed.y ?? 0) };
                return (item.dataset as Dataset).id === 'measure' && drifted.has(item.parsed.x ?? NaN)
                  ? t('chart.qps.tooltipDrifted', values)
                  : t('chart.qps.tooltip', values);
              },
            },
          },
          warmupBand: { bands: warmupBands, label: t('chart.warmup'), textColour: theme.muted },
        },
      }),
    [xMax, warmupBands, theme, drifted, t],
  );

  const points = plottedCount(series.warmup, series.measure, referenceSeries ?? []);
  return (
    <ChartFrame
      testId="qps-chart"
      title={t('chart.qps.title')}
      points={points}
      emptyMessage={t('chart.qps.empty')}
      caption={marked ? t('chart.qps.driftCaption', { unstable: unstableCaption() }) : undefined}
      series={data.datasets.flatMap((d) => (d.data.length ? [d.label ?? ''] : []))}
    >
      <LineCanvas data={data} options={options} plugins={plugins} label={t('chart.qps.label')} />
    </ChartFrame>
  );
}
