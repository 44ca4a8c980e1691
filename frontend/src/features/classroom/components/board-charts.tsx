import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { LineCanvas } from '@/components/line-canvas';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { latencyAxis, palette, REFERENCE_DASH, seriesStyle, valueAxis, variedAxis, type ChartTheme } from '@/lib/chart';
import { formatLatencyUs, formatQps } from '@/lib/format';

import {
  plottedBars,
  plottedLines,
  runBars,
  seriesLines,
  type BoardBar,
  type BoardMetric,
  type BoardSeries,
} from '../lib/board-chart-data';
import type { ClassroomT } from '../lib/class-text';
import type { BoardExperiment } from '../lib/classroom-schemas';

/** Students' looks come from the app's one palette (lib/chart); grey is kept for the reference. */
const REFERENCE_COLOUR = palette.grey;
/** Several servers in one series: one point style each, the colour stays the student's. */
const POINT_STYLES = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'crossRot'] as const;
const HOLLOW = 'rgba(255, 255, 255, 0)';

interface MetricText {
  title: string;
  axis: string;
  format: (v: number) => string;
}

/** A metric's chart title, axis title and figures, in the interface's language. */
function metricText(metric: BoardMetric, t: ClassroomT): MetricText {
  return metric === 'qps'
    ? { title: t('chart.qpsTitle'), axis: t('chart.qpsAxis'), format: formatQps }
    : { title: t('chart.p99Title'), axis: t('chart.p99Axis'), format: formatLatencyUs };
}

function colourOf(person: number): string {
  return person < 0 ? REFERENCE_COLOUR : seriesStyle(person).colour;
}

function yAxis(metric: BoardMetric, { axis, format }: MetricText, theme: ChartTheme) {
  return metric === 'p99_us' ? latencyAxis({ log: false, usPerUnit: 1, title: axis, theme }) : valueAxis(axis, format, theme);
}

interface ChartProps {
  experiment: BoardExperiment;
  metric: BoardMetric;
}

/** A single run's experiment: one named bar per student, the reference in grey beside them. */
export function BoardBarsChart({ experiment, metric }: ChartProps) {
  const { t } = useTranslation('classroom');
  const bars = useMemo(() => runBars(experiment, metric, t), [experiment, metric, t]);
  return <BarsChart bars={bars} metric={metric} testId={`board-${metric}-chart`} />;
}

/** A series: one line per student (and server) over the varied value, the reference dashed grey. */
export function BoardLinesChart({ experiment, metric }: ChartProps) {
  const { t } = useTranslation('classroom');
  const series = useMemo(() => seriesLines(experiment, metric, t), [experiment, metric, t]);
  if (!series.varies) {
    // One value only (servers compared side by side): a bar per student and server.
    const bars: BoardBar[] = series.lines.map((line) => ({
      id: line.id,
      label: line.label,
      value: line.points[0]?.y ?? null,
      reference: line.reference,
      flagged: false,
      note: '',
    }));
    return <BarsChart bars={bars} metric={metric} testId={`board-${metric}-chart`} />;
  }
  return <LinesChart series={series} metric={metric} vary={experiment.vary ?? t('chart.value')} />;
}

function BarsChart({ bars, metric, testId }: { bars: BoardBar[]; metric: BoardMetric; testId: string }) {
  const { t } = useTranslation('classroom');
  const text = useMemo(() => metricText(metric, t), [metric, t]);
  const { title, format } = text;
  const theme = useChartTheme();
  const data = useMemo<ChartData<'bar', (number | null)[], string>>(() => {
    let student = 0;
    const colours = bars.map((bar) => colourOf(bar.reference ? -1 : student++));
    return {
      labels: bars.map((bar) => bar.label),
      datasets: [
        {
          id: 'results',
          label: title,
          data: bars.map((bar) => bar.value),
          backgroundColor: bars.map((bar, i) => (bar.flagged ? HOLLOW : colours[i])),
          borderColor: colours,
          borderWidth: 2,
        },
      ],
    };
  }, [bars, title]);
  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      animation: false,
      scales: { x: { grid: { display: false }, ticks: { color: theme.text } }, y: yAxis(metric, text, theme) },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            label: (item) => {
              const value = format(item.parsed.y ?? 0);
              const note = bars[item.dataIndex]?.note;
              return note ? t('chart.withNote', { value, note }) : value;
            },
          },
        },
      },
    }),
    [bars, metric, text, format, theme, t],
  );
  return (
    <ChartFrame
      testId={testId}
      title={title}
      points={plottedBars(bars)}
      emptyMessage={t('chart.empty')}
      caption={t('chart.barsCaption')}
    >
      <Bar data={data} options={options} datasetIdKey="id" aria-label={t('chart.barsLabel', { title })} role="img" />
    </ChartFrame>
  );
}

/** Connections and friends spanning two decades or more read best on a log axis. */
function wantsLogAxis(values: number[]): boolean {
  if (values.length < 2 || values.some((v) => v <= 0)) return false;
  return Math.max(...values) / Math.min(...values) >= 100;
}

function LinesChart({ series, metric, vary }: { series: BoardSeries; metric: BoardMetric; vary: string }) {
  const { t } = useTranslation('classroom');
  const text = useMemo(() => metricText(metric, t), [metric, t]);
  const { title, format } = text;
  const theme = useChartTheme();
  const data = useMemo<ChartData<'line', { x: number; y: number | null }[]>>(
    () => ({
      datasets: series.lines.map((line) => ({
        id: line.id,
        label: line.label,
        data: line.points,
        borderColor: colourOf(line.person),
        backgroundColor: colourOf(line.person),
        borderDash: line.reference ? REFERENCE_DASH : seriesStyle(line.person).dash,
        pointStyle: POINT_STYLES[line.serverIndex % POINT_STYLES.length],
        pointRadius: 4,
        borderWidth: line.reference ? 2 : 2.5,
        spanGaps: false,
      })),
    }),
    [series],
  );
  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      animation: false,
      scales: {
        x: variedAxis(series.values, wantsLogAxis(series.values), vary.replaceAll('_', ' '), theme),
        y: yAxis(metric, text, theme),
      },
      plugins: {
        tooltip: {
          callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${format(item.parsed.y ?? 0)}` },
        },
      },
    }),
    [series.values, vary, metric, text, format, theme],
  );
  return (
    <ChartFrame
      testId={`board-${metric}-chart`}
      title={title}
      points={plottedLines(series)}
      emptyMessage={t('chart.empty')}
      caption={t('chart.linesCaption')}
    >
      <LineCanvas data={data} options={options} label={t('chart.linesLabel', { title, vary })} />
    </ChartFrame>
  );
}
