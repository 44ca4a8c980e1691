import type { ChartData, ChartDataset, ChartOptions, PointStyle } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';

import { ChartFrame } from '@/components/chart-frame';
import { useChartTheme } from '@/hooks/use-chart-theme';
import type { DoneEvent } from '@/lib/api-schemas';
import {
  legendShowsSeriesStyle,
  lineLook,
  liveChartOptions,
  palette,
  pointMarks,
  timeAxis,
  UNSTABLE_CAPTION,
  valueAxis,
} from '@/lib/chart';
import { formatQps } from '@/lib/format';

import {
  driftedTimes,
  LIVE_LABEL,
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
  const theme = useChartTheme();
  const series = useMemo(() => qpsSeries(progress), [progress]);
  const referenceSeries = useMemo(() => (reference ? qpsSeries(reference.progress).measure : null), [reference]);
  const drifted = useMemo(() => driftedTimes(result), [result]);
  const referenceDrifted = useMemo(() => driftedTimes(reference?.result), [reference]);
  const marked = drifted.size + referenceDrifted.size > 0;

  const data = useMemo<ChartData<'line', TimeXY[]>>(() => {
    const own = (figure: string) => (reference ? `${figure} · ${LIVE_LABEL}` : figure);
    const datasets: Dataset[] = [
      {
        id: 'warm-up',
        label: own('warm-up'),
        data: series.warmup,
        ...lineLook(palette.grey, 'live', [6, 4]),
        borderWidth: 2,
        pointStyle: 'rectRot',
        pointRadius: 4,
      },
      {
        id: 'measure',
        label: own('measured'),
        data: series.measure,
        ...lineLook(palette.blue, 'live'),
        ...driftMarks(series.measure, drifted, 3),
        legendPointStyle: 'circle',
      },
    ];
    if (reference && referenceSeries) {
      datasets.push({
        id: 'reference:measure',
        label: `measured · ${reference.label}`,
        data: referenceSeries,
        ...lineLook(palette.blue, 'reference'),
        ...driftMarks(referenceSeries, referenceDrifted, 2.5),
        legendPointStyle: 'circle',
      });
    }
    return { datasets };
  }, [series, reference, referenceSeries, drifted, referenceDrifted]);

  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      ...liveChartOptions,
      scales: {
        x: timeAxis(xMax, theme),
        y: valueAxis('requests / s', formatQps, theme),
      },
      plugins: {
        legend: legendShowsSeriesStyle,
        tooltip: {
          callbacks: {
            label: (item) =>
              `${item.dataset.label ?? ''}: ${formatQps(item.parsed.y ?? 0)} req/s${
                (item.dataset as Dataset).id === 'measure' && drifted.has(item.parsed.x ?? NaN)
                  ? ' (drifted off the median)'
                  : ''
              }`,
          },
        },
        warmupBand: { bands: warmupBands, textColour: theme.muted },
      },
    }),
    [xMax, warmupBands, theme, drifted],
  );

  const points = plottedCount(series.warmup, series.measure, referenceSeries ?? []);
  return (
    <ChartFrame
      testId="qps-chart"
      title="Throughput (QPS)"
      points={points}
      emptyMessage="Waiting for the first interval…"
      caption={marked ? `${UNSTABLE_CAPTION} Here: an interval whose throughput drifted off the run's median.` : undefined}
      series={data.datasets.flatMap((d) => (d.data.length ? [d.label ?? ''] : []))}
    >
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
