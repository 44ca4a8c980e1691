import type { ChartData } from 'chart.js';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { LineCanvas } from '@/components/line-canvas';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { latencyAxis, overTimeOptions, palette } from '@/lib/chart';
import { formatLatencyUs } from '@/lib/format';

import { liveLatencySeries, plottedCount, type ReferenceRun, type TimeXY } from '../../lib/chart-data';
import type { ProgressPoint } from '../../lib/run-state';

import { liveLines, type LiveFigure } from './live-lines';
import { LogScaleToggle } from './log-scale-toggle';

interface LatencyLiveChartProps {
  progress: ProgressPoint[];
  xMax: number | undefined;
  /** The recorded reference, drawn dimmer under this run. */
  reference?: ReferenceRun | null | undefined;
}

const FIGURES: readonly LiveFigure<'p50' | 'p99'>[] = [
  { id: 'p50', name: 'p50', colour: palette.green },
  { id: 'p99', name: 'p99', colour: palette.vermilion },
];

/** p50 and p99 of each measured interval, over time (a reference's dimmer and dotted). */
export function LatencyLiveChart({ progress, xMax, reference }: LatencyLiveChartProps) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const [log, setLog] = useState(false);
  const series = useMemo(() => liveLatencySeries(progress), [progress]);
  const referenceSeries = useMemo(() => (reference ? liveLatencySeries(reference.progress) : null), [reference]);

  const data = useMemo<ChartData<'line', TimeXY[]>>(
    () => ({ datasets: liveLines(FIGURES, series, reference, referenceSeries, { pointRadius: 3, liveWord: t('chart.live') }) }),
    [series, reference, referenceSeries, t],
  );

  const options = useMemo(
    () =>
      overTimeOptions(xMax, theme, {
        scales: { y: latencyAxis({ log, usPerUnit: 1000, title: t('chart.latency'), theme }) },
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
      <LineCanvas data={data} options={options} label={t('chart.liveLatency.label')} />
    </ChartFrame>
  );
}
