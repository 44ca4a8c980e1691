import type { Chart as ChartJS, ChartData, ChartDataset, ChartOptions, LegendItem, PointStyle } from 'chart.js';
import { useMemo, useState } from 'react';
import { Chart } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { useServers } from '@/hooks/use-servers';
import type { SweepPoint } from '@/lib/api-schemas';
import {
  barValuesPlugin,
  latencyAxis,
  legendShowsSeriesStyle,
  lineLook,
  pointMarks,
  seriesStyle,
  unstableCaption,
  valueAxis,
  variedAxis,
  withAlpha,
  type ChartTheme,
} from '@/lib/chart';
import { formatCalls, formatLatencyUs, formatQps } from '@/lib/format';

import type { SweepRequest } from '../../lib/experiment-block';
import { serverStyleIndexes, seriesLines, variesValue, wantsLogAxis, type RunningMark, type SeriesLine, type SeriesMetric } from '../../lib/series';
import { variedName } from '../../lib/words';

import { LogScaleToggle } from './log-scale-toggle';

// Titles and axes as keys: said in the page's language when drawn.
const METRIC = {
  qps: { title: 'chart.qps.title', axis: 'chart.requestsPerSecond', format: formatQps },
  p99_us: { title: 'chart.p99Latency', axis: 'chart.p99Latency', format: formatLatencyUs },
  calls_per_request: { title: 'chart.series.callsTitle', axis: 'chart.series.callsAxis', format: formatCalls },
} as const satisfies Record<SeriesMetric, { title: string; axis: string; format: (v: number) => string }>;

/** The recorded reference of a series, drawn dimmer under the learner's. */
export interface SeriesReference {
  label: string;
  points: SweepPoint[];
}

interface SeriesChartProps {
  sweep: SweepRequest;
  points: SweepPoint[];
  metric: SeriesMetric;
  testId: string;
  reference?: SeriesReference | null | undefined;
  /** The point being measured (throughput and latency only): its figures so far, a mark of
   *  its own until the point lands. */
  running?: RunningMark | null | undefined;
}

const HOLLOW = 'rgba(0, 0, 0, 0)';
/** The segments into and out of a point where the server refused part of the load. */
const REFUSED_DASH = [3, 4];
const BAR_PLUGINS = [barValuesPlugin];
/** The running point's mark: a shape no finished point has, so it never reads as a result. */
const RUNNING_STYLE: PointStyle = 'rectRot';

/**
 * Marks the points where the server refused or dropped part of the load: an open ring, larger
 * than a point, and dashed segments on either side, so such a point never reads as a clean
 * one on a line that goes on through it (an unstable point keeps its ×, open too).
 */
function refusedMarks(line: SeriesLine, colour: string) {
  if (!line.refused.some(Boolean)) return {};
  return {
    pointBackgroundColor: line.refused.map((r) => (r ? HOLLOW : colour)),
    pointRadius: line.refused.map((r, i) => (r ? 6 : line.unstable[i] ? 7 : 4)),
    pointBorderWidth: line.refused.map((r, i) => (r ? 2.5 : line.unstable[i] ? 2.5 : 1)),
    segment: {
      borderDash: (ctx: { p0DataIndex: number; p1DataIndex: number }) =>
        line.refused[ctx.p0DataIndex] || line.refused[ctx.p1DataIndex] ? REFUSED_DASH : undefined,
    },
  };
}

/** The bar chart's legend: "your run" solid, the reference faint and dashed, the running point
 *  dashed; in the text colour, as every server has a colour of its own. */
function roleLegend(chart: ChartJS, theme: ChartTheme): LegendItem[] {
  return chart.data.datasets.map((dataset, i) => {
    const role = (dataset as { id?: string }).id;
    const faint = role === 'reference';
    return {
      text: dataset.label ?? '',
      datasetIndex: i,
      fillStyle: faint ? withAlpha(theme.text, 0.25) : role === 'running' ? withAlpha(theme.text, 0.15) : theme.text,
      strokeStyle: theme.text,
      lineDash: role === 'live' ? [] : [3, 3],
      lineWidth: 1.5,
      fontColor: theme.text,
      hidden: !chart.isDatasetVisible(i),
    };
  });
}

/** A point of a line: its figure and, where it has one, its interval as whiskers. */
interface Whiskered {
  x: number;
  y: number | null;
  yMin?: number;
  yMax?: number;
}
type LineDataset = ChartDataset<'lineWithErrorBars', Whiskered[]> & { id: string; legendPointStyle?: PointStyle };
type BarDatum = Omit<Whiskered, 'x'>;

/** The figure with its interval's ends, when it has one. */
function whiskered(value: number | null, interval: [number, number] | null | undefined) {
  return interval && value !== null ? { y: value, yMin: interval[0], yMax: interval[1] } : { y: value };
}

function yAxis(metric: SeriesMetric, axis: string, log: boolean, theme: ChartTheme) {
  const { format } = METRIC[metric];
  return metric === 'p99_us' ? latencyAxis({ log, usPerUnit: 1, title: axis, theme }) : valueAxis(axis, format, theme);
}

/** One series per server (the reference's dimmer beside it): a line over the varied value, or
 *  one bar each when nothing varies. A server keeps its look on every chart of the page. */
export function SeriesChart({ sweep, points, metric, testId, reference, running }: SeriesChartProps) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const catalog = useServers();
  const [log, setLog] = useState(false);
  const lines = useMemo(() => seriesLines(sweep, points, metric), [sweep, points, metric]);
  const referenceLines = useMemo(
    () => (reference ? seriesLines(sweep, reference.points, metric) : []),
    [sweep, reference, metric],
  );
  const styles = useMemo(
    () => serverStyleIndexes(sweep.servers, catalog.data?.map((s) => s.id)),
    [sweep.servers, catalog.data],
  );
  const styleOf = (server: string) => seriesStyle(styles.get(server) ?? 0);
  const all = [...lines, ...referenceLines];
  const runningFigure = running && metric !== 'calls_per_request' ? running[metric] : null;
  const runningLabel = running ? t(running.phase === 'warmup' ? 'chart.series.runningWarmup' : 'chart.series.runningMeasure', { server: running.server }) : '';
  const plotted = all.reduce((n, line) => n + line.values.filter((v) => v !== null).length, 0) + (runningFigure !== null ? 1 : 0);
  const marked = all.some((line) => line.unstable.some(Boolean));
  const partial = all.some((line) => line.refused.some(Boolean));
  const { format } = METRIC[metric];
  const title = t(METRIC[metric].title);
  const axis = t(METRIC[metric].axis);
  const unstableNote = (unstable: boolean) => (unstable ? ` ${t('chart.series.unstableNote')}` : '');
  const refusedNote = (refused: boolean) => (refused ? ` ${t('chart.series.refusedNote')}` : '');
  const isLatency = metric === 'p99_us';
  const rangeNote = (interval: [number, number] | null | undefined) =>
    interval ? ` ${t('chart.series.intervalNote', { low: format(interval[0]), high: format(interval[1]) })}` : '';
  const whiskers = all.some((line) => line.intervals.some(Boolean));

  const lineData = useMemo<ChartData<'lineWithErrorBars', Whiskered[]>>(() => {
    const dataset = (line: SeriesLine, role: 'live' | 'reference'): LineDataset => {
      const style = seriesStyle(styles.get(line.server) ?? 0);
      return {
        id: role === 'live' ? line.server : `reference:${line.server}`,
        label: reference ? `${line.server} · ${role === 'live' ? t('chart.live') : reference.label}` : line.server,
        data: sweep.values.map((x, j) => ({ x, ...whiskered(line.values[j] ?? null, line.intervals[j]) })),
        ...lineLook(style.colour, role, style.dash),
        ...pointMarks(line.unstable, { pointStyle: style.pointStyle, radius: role === 'live' ? 4 : 3.5 }),
        ...refusedMarks(line, style.colour),
        legendPointStyle: style.pointStyle,
        spanGaps: false,
        errorBarColor: withAlpha(style.colour, role === 'live' ? 0.9 : 0.45),
        errorBarWhiskerColor: withAlpha(style.colour, role === 'live' ? 0.9 : 0.45),
      };
    };
    const now: LineDataset[] =
      running && runningFigure !== null
        ? [
            {
              id: 'running',
              label: runningLabel,
              data: [{ x: running.value, y: runningFigure }],
              showLine: false,
              pointStyle: RUNNING_STYLE,
              legendPointStyle: RUNNING_STYLE,
              pointRadius: 7,
              borderColor: seriesStyle(styles.get(running.server) ?? 0).colour,
              backgroundColor: withAlpha(seriesStyle(styles.get(running.server) ?? 0).colour, 0.3),
            },
          ]
        : [];
    return {
      datasets: [...lines.map((l) => dataset(l, 'live')), ...referenceLines.map((l) => dataset(l, 'reference')), ...now],
    };
  }, [lines, referenceLines, reference, sweep.values, styles, t, running, runningFigure, runningLabel]);

  const unstableAt = (datasetIndex: number, dataIndex: number) => all[datasetIndex]?.unstable[dataIndex] ?? false;
  const refusedAt = (datasetIndex: number, dataIndex: number) => all[datasetIndex]?.refused[dataIndex] ?? false;

  const lineOptions = useMemo<ChartOptions<'lineWithErrorBars'>>(
    () => ({
      animation: false,
      scales: {
        x: variedAxis(sweep.values, wantsLogAxis(sweep.values), variedName(sweep.vary, t), theme),
        y: yAxis(metric, axis, log, theme),
      },
      plugins: {
        legend: legendShowsSeriesStyle,
        tooltip: {
          callbacks: {
            label: (item) =>
              `${item.dataset.label ?? ''}: ${format(item.parsed.y)}${rangeNote(all[item.datasetIndex]?.intervals[item.dataIndex])}${unstableNote(unstableAt(item.datasetIndex, item.dataIndex))}${refusedNote(refusedAt(item.datasetIndex, item.dataIndex))}`,
          },
        },
      },
    }),
    // format and axis follow from metric and t; unstableAt reads `all`, which follows from the lines.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [sweep.values, sweep.vary, metric, lines, referenceLines, log, theme, t],
  );

  const barData = useMemo<ChartData<'barWithErrorBars', BarDatum[], string>>(() => {
    const bars = (from: SeriesLine[], role: 'live' | 'reference') => ({
      id: role,
      label: reference ? (role === 'live' ? t('chart.live') : reference.label) : title,
      data: from.map((line) => whiskered(line.values[0] ?? null, line.intervals[0])),
      errorBarColor: theme.text,
      errorBarWhiskerColor: theme.text,
      backgroundColor: from.map((line) => {
        const colour = styleOf(line.server).colour;
        if (line.unstable[0] || line.refused[0]) return HOLLOW;
        return role === 'live' ? colour : withAlpha(colour, 0.35);
      }),
      borderColor: from.map((line) => styleOf(line.server).colour),
      borderDash: role === 'reference' ? [2, 3] : [],
      borderWidth: 2,
      // A figure far below the others (io_uring's 0.04 calls beside poll's 2.5) still shows.
      minBarLength: 3,
    });
    const now =
      running && runningFigure !== null
        ? [
            {
              id: 'running',
              label: runningLabel,
              data: lines.map((line) => ({ y: line.server === running.server ? runningFigure : null })),
              backgroundColor: withAlpha(styleOf(running.server).colour, 0.25),
              borderColor: styleOf(running.server).colour,
              borderDash: [6, 3],
              borderWidth: 2,
              // Over its server's place, not beside an empty bar of "your run".
              grouped: false,
            },
          ]
        : [];
    return {
      labels: lines.map((line) => line.server),
      datasets: [bars(lines, 'live'), ...(reference ? [bars(referenceLines, 'reference')] : []), ...now],
    };
    // styleOf reads styles.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lines, referenceLines, reference, title, styles, theme, t, running, runningFigure, runningLabel]);

  const barOptions = useMemo<ChartOptions<'barWithErrorBars'>>(
    () => ({
      animation: false,
      scales: {
        x: { grid: { display: false }, ticks: { color: theme.text } },
        y: yAxis(metric, axis, log, theme),
      },
      plugins: {
        legend: {
          display: reference != null || runningFigure !== null,
          // Each entry in the look of its role, not of its first bar: a hollow bar means
          // unstable, so "your run" must not be drawn hollow because its first bar was.
          labels: { generateLabels: (chart: ChartJS) => roleLegend(chart, theme) },
        },
        // Calls per request differ by 50× between models: their numbers say what a sliver cannot.
        ...(metric === 'calls_per_request' ? { barValues: { format, color: theme.text } } : {}),
        tooltip: {
          callbacks: {
            label: (item) =>
              item.datasetIndex === (reference ? 2 : 1)
                ? `${runningLabel}: ${format(item.parsed.y)}`
                : `${reference ? `${item.dataset.label ?? ''}: ` : ''}${format(item.parsed.y)}${rangeNote(
                (item.datasetIndex === 0 ? lines : referenceLines)[item.dataIndex]?.intervals[0],
              )}${unstableNote(
                (item.datasetIndex === 0 ? lines : referenceLines)[item.dataIndex]?.unstable[0] ?? false,
              )}${refusedNote((item.datasetIndex === 0 ? lines : referenceLines)[item.dataIndex]?.refused[0] ?? false)}`,
          },
        },
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metric, lines, referenceLines, reference, log, theme, t, runningFigure, runningLabel],
  );

  const varies = variesValue(sweep);
  // Bars have no × to mark: a hollow bar says it, in this feature's own words.
  const captions = [
    whiskers ? t('chart.series.whiskerCaption') : null,
    marked ? (varies ? unstableCaption() : t('chart.series.hollowCaption')) : null,
    partial ? t(varies ? 'chart.series.refusedCaption' : 'chart.series.refusedBarCaption') : null,
  ].filter(Boolean);
  const caption = captions.length > 0 ? captions.join(' ') : undefined;
  // The lines (or bars) drawn, by name, for screen readers: those with a figure to show.
  const drawn = (varies ? lineData.datasets : barData.datasets).flatMap((d) =>
    (d.data as ({ y: number | null } | null)[]).some((datum) => datum?.y != null) ? [d.label ?? ''] : [],
  );
  return (
    <ChartFrame
      testId={testId}
      title={title}
      points={plotted}
      series={drawn}
      emptyMessage={t('chart.series.empty')}
      controls={isLatency ? <LogScaleToggle checked={log} onChange={setLog} /> : undefined}
      caption={caption}
    >
      {varies ? (
        <Chart type="lineWithErrorBars" data={lineData} options={lineOptions} datasetIdKey="id" aria-label={t('chart.series.byField', { title, field: variedName(sweep.vary, t) })} role="img" />
      ) : (
        <Chart type="barWithErrorBars" data={barData} options={barOptions} plugins={BAR_PLUGINS} datasetIdKey="id" aria-label={t('chart.series.byServer', { title })} role="img" />
      )}
    </ChartFrame>
  );
}
