import type { ChartData, ChartDataset, ChartOptions, PointStyle } from 'chart.js';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { LineCanvas } from '@/components/line-canvas';
import { useChartTheme } from '@/hooks/use-chart-theme';
import type { DoneEvent, Summary } from '@/lib/api-schemas';
import {
  latencyAxis,
  legendShowsSeriesStyle,
  lineLook,
  liveChartOptions,
  palette,
  pointMarks,
  unstableCaption,
} from '@/lib/chart';
import { formatLatencyUs } from '@/lib/format';

import {
  intervalDistribution,
  normalisePercentiles,
  percentileAxisMax,
  percentileLabel,
  percentileTicks,
  percentilesOf,
  resultIsUnstable,
  summaryDistribution,
  unstablePercentiles,
  type ReferenceRun,
  type XY,
} from '../../lib/chart-data';
import type { ProgressPoint } from '../../lib/run-state';

import { LogScaleToggle } from './log-scale-toggle';

type Dataset = ChartDataset<'line', XY[]> & { id: string; legendPointStyle?: PointStyle };

interface LatencyPercentileChartProps {
  progress: ProgressPoint[];
  /** The finished run's result: its whole distribution, marked when the run was unstable. */
  result: DoneEvent | null;
  /** The recorded reference, drawn dimmer under this run. */
  reference?: ReferenceRun | null | undefined;
}

function axisMaxOf(summary: Summary | null | undefined): number {
  return summary ? percentileAxisMax(normalisePercentiles(percentilesOf(summary))) : 1000;
}

/** The whole run's points (many: no dots), marked when the run was unstable. */
function runLook(points: XY[], unstable: boolean) {
  const radius = points.length > 30 ? 0 : 3;
  return {
    ...pointMarks(unstablePercentiles(points, unstable), { pointStyle: 'circle', radius }),
    legendPointStyle: 'circle' as const,
  };
}

/**
 * Latency by percentile, the HdrHistogram way: the x axis is 1/(1-p) on a log
 * scale, so 50 %, 90 %, 99 % and 99.9 % are evenly spaced and the tail is visible.
 * While measuring it shows the newest interval; when done, the whole run.
 */
export function LatencyPercentileChart({ progress, result, reference }: LatencyPercentileChartProps) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const [log, setLog] = useState(false);
  const summary = result?.summary ?? null;
  const axisMax = Math.max(axisMaxOf(summary), axisMaxOf(reference?.result?.summary));
  const runPoints = useMemo(() => (summary ? summaryDistribution(summary, axisMax) : []), [summary, axisMax]);
  const intervalPoints = useMemo(() => (summary ? [] : intervalDistribution(progress)), [summary, progress]);
  const referenceSummary = reference?.result?.summary ?? null;
  const referencePoints = useMemo(
    () => (referenceSummary ? summaryDistribution(referenceSummary, axisMax) : []),
    [referenceSummary, axisMax],
  );
  const unstable = resultIsUnstable(result);
  const referenceUnstable = resultIsUnstable(reference?.result);

  const data = useMemo<ChartData<'line', XY[]>>(() => {
    const own = (figure: string) => (reference ? `${figure} · ${t('chart.live')}` : figure);
    const datasets: Dataset[] = [
      {
        id: 'interval',
        label: own(t('chart.percentile.interval')),
        data: intervalPoints,
        ...lineLook(palette.orange, 'live', [5, 4]),
        borderWidth: 2,
        pointRadius: 4,
      },
      {
        id: 'run',
        label: own(unstable ? t('chart.percentile.wholeRunUnstable') : t('chart.percentile.wholeRun')),
        data: runPoints,
        ...lineLook(palette.purple, 'live'),
        ...runLook(runPoints, unstable),
      },
    ];
    if (reference) {
      datasets.push({
        id: 'reference:run',
        label: `${t('chart.percentile.wholeRun')} · ${referenceUnstable ? t('chart.percentile.unstable', { label: reference.label }) : reference.label}`,
        data: referencePoints,
        ...lineLook(palette.purple, 'reference'),
        ...runLook(referencePoints, referenceUnstable),
      });
    }
    return { datasets };
  }, [intervalPoints, runPoints, reference, referencePoints, unstable, referenceUnstable, t]);

  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      ...liveChartOptions,
      scales: {
        x: {
          type: 'logarithmic',
          min: 1,
          max: axisMax,
          title: { display: true, text: t('chart.percentile.axis'), color: theme.text },
          grid: { color: theme.grid },
          afterBuildTicks: (axis) => {
            axis.ticks = percentileTicks(axisMax);
          },
          // Chart.js drops labels that would overlap (autoSkip runs after the ticks are built).
          ticks: { autoSkip: true, autoSkipPadding: 10, maxRotation: 0, color: theme.text, callback: (value) => percentileLabel(Number(value)) },
        },
        y: latencyAxis({ log, usPerUnit: 1000, title: t('chart.latency'), theme }),
      },
      plugins: {
        legend: legendShowsSeriesStyle,
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? t('chart.percentile.within', { percentile: percentileLabel(items[0].parsed.x ?? 1) }) : ''),
            label: (item) => `${item.dataset.label ?? ''}: ${formatLatencyUs((item.parsed.y ?? 0) * 1000)}`,
          },
        },
      },
    }),
    [axisMax, log, theme, t],
  );

  return (
    <ChartFrame
      testId="latency-chart"
      title={t('chart.percentile.title')}
      points={intervalPoints.length + runPoints.length + referencePoints.length}
      emptyMessage={t('chart.shownWhenMeasuring')}
      controls={<LogScaleToggle checked={log} onChange={setLog} />}
      caption={unstable || referenceUnstable ? unstableCaption() : undefined}
    >
      <LineCanvas data={data} options={options} label={t('chart.percentile.title')} />
    </ChartFrame>
  );
}
