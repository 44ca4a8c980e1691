/**
 * Chart.js set-up shared by every chart: only the pieces the course uses are
 * registered, and defaults fit a projector (no animation, readable fonts). The words it
 * writes (axis titles, the unstable points' caption) are in the interface's language when
 * called: a chart that puts them in its options computes those again with its `t`.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartOptions,
  type ChartType,
  type Plugin,
  type PointStyle,
} from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController, LineWithErrorBarsController, PointWithErrorBar } from 'chartjs-chart-error-bars';

import common from '@/locales/en/common.json';

import { formatInt, formatLatencyTickUs } from './format';
import { i18next } from './i18n';

ChartJS.register(
  BarController,
  BarElement,
  CategoryScale,
  LineController,
  ScatterController,
  LineElement,
  PointElement,
  LinearScale,
  LogarithmicScale,
  Tooltip,
  Legend,
  Filler,
  // whiskers: a figure's 95 % interval on series charts
  LineWithErrorBarsController,
  PointWithErrorBar,
  BarWithErrorBarsController,
  BarWithErrorBar,
);

ChartJS.defaults.animation = false;
ChartJS.defaults.font.family =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
ChartJS.defaults.font.size = 13;
ChartJS.defaults.maintainAspectRatio = false;
ChartJS.defaults.plugins.legend.labels.usePointStyle = true;
ChartJS.defaults.plugins.legend.labels.boxHeight = 8;

// ───────────── theme: the page's colours, light or dark ─────────────

/** The colours a chart takes from the page (custom properties of the root element). */
export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  surface: string;
}

/** Used where the page defines no custom property (and in tests): the light and dark looks. */
export const FALLBACK_THEMES: Record<'light' | 'dark', ChartTheme> = {
  light: { text: '#374151', muted: '#5b6472', grid: 'rgba(31, 41, 55, 0.10)', surface: '#ffffff' },
  dark: { text: '#d1d5db', muted: '#9ca3af', grid: 'rgba(229, 231, 235, 0.14)', surface: '#111827' },
};

const THEME_PROPERTIES: Record<keyof ChartTheme, string> = {
  text: '--color-text',
  muted: '--color-muted',
  grid: '--color-grid',
  surface: '--color-surface',
};

/** The chart colours `<html data-theme>` and global.css set now. */
export function readChartTheme(root: HTMLElement = document.documentElement): ChartTheme {
  const fallback = FALLBACK_THEMES[root.dataset.theme === 'dark' ? 'dark' : 'light'];
  const style = getComputedStyle(root);
  const read = (key: keyof ChartTheme) => style.getPropertyValue(THEME_PROPERTIES[key]).trim() || fallback[key];
  return { text: read('text'), muted: read('muted'), grid: read('grid'), surface: read('surface') };
}

/** Legends, tooltips and anything else not given a colour follow the theme too. */
export function applyChartDefaults(theme: ChartTheme): void {
  ChartJS.defaults.color = theme.text;
  ChartJS.defaults.borderColor = theme.grid;
}

applyChartDefaults(FALLBACK_THEMES.light);

// ───────────── series: up to twelve, each unlike the others ─────────────

/**
 * Colour-blind-safe (Okabe–Ito without its black and yellow, which vanish on a dark or a
 * white page), strong enough for a projector. The run charts name their figures by these.
 */
export const palette = {
  blue: '#0072B2',
  vermilion: '#D55E00',
  green: '#009E73',
  orange: '#E69F00',
  purple: '#CC79A7',
  sky: '#56B4E9',
  grey: '#8a8f98',
} as const;

const SERIES_COLOURS = [palette.blue, palette.vermilion, palette.green, palette.orange, palette.purple, palette.sky];
/** Solid for the first six series, long dashes for the next six. Dots are the reference's. */
const SERIES_DASHES: number[][] = [[], [8, 4]];
const SERIES_POINTS: PointStyle[] = ['circle', 'rect', 'triangle', 'rectRot'];

/** How many series look unlike each other; more repeat the first looks. */
export const DISTINCT_SERIES = SERIES_COLOURS.length * SERIES_DASHES.length;

export interface SeriesStyle {
  colour: string;
  dash: number[];
  pointStyle: PointStyle;
}

/**
 * The look of the series at `index`: twelve pairwise different (colour × line), the point
 * shape differing too between two series of one colour, so a reader who cannot tell the
 * colours apart still can. A chart's series keep their index (e.g. a server's place in the
 * catalog), so one server looks the same on every chart.
 */
export function seriesStyle(index: number): SeriesStyle {
  const i = ((Math.trunc(index) % DISTINCT_SERIES) + DISTINCT_SERIES) % DISTINCT_SERIES;
  const round = Math.floor(i / SERIES_COLOURS.length);
  return {
    colour: SERIES_COLOURS[i % SERIES_COLOURS.length] ?? palette.blue,
    dash: SERIES_DASHES[round] ?? [],
    pointStyle: SERIES_POINTS[(i + round) % SERIES_POINTS.length] ?? 'circle',
  };
}

/** `#rrggbb` at `alpha`, for the dimmer reference lines. */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  const [r, g, b] = m.slice(1, 4).map((h) => parseInt(h, 16));
  return `rgba(${r ?? 0}, ${g ?? 0}, ${b ?? 0}, ${alpha})`;
}

/** Who produced a line: the learner's live run, or the recorded reference drawn under it. */
export type SeriesRole = 'live' | 'reference';

/** The reference's lines: the series' colour dimmed, dotted, thin, with hollow points. */
export const REFERENCE_DASH = [2, 3];
const TRANSPARENT = 'rgba(0, 0, 0, 0)';

/** Line options for a series of `colour` drawn as `role`. */
export function lineLook(colour: string, role: SeriesRole, dash: number[] = []) {
  return role === 'live'
    ? { borderColor: colour, backgroundColor: colour, borderDash: dash, borderWidth: 2.5 }
    : {
        borderColor: withAlpha(colour, 0.6),
        backgroundColor: TRANSPARENT,
        pointBackgroundColor: TRANSPARENT,
        borderDash: REFERENCE_DASH,
        borderWidth: 1.75,
      };
}

/** The mark of an unstable point (disturbed while measured, or client-bound): a large ×,
 *  a shape no series uses. */
export const UNSTABLE_POINT = { pointStyle: 'crossRot' as PointStyle, radius: 7, borderWidth: 2.5 };

/** The caption under a chart with unstable points. */
export function unstableCaption(): string {
  return i18next.t('chart.unstable', { ns: 'common' });
}

/** The caption in English alone: for code not yet calling unstableCaption(). */
export const UNSTABLE_CAPTION: string = common.chart.unstable;

/** Per-point options that mark the `unstable` points of a dataset drawn as `base`. */
export function pointMarks(unstable: boolean[], base: { pointStyle: PointStyle; radius: number }) {
  if (!unstable.some(Boolean)) return { pointStyle: base.pointStyle, pointRadius: base.radius };
  return {
    pointStyle: unstable.map((u) => (u ? UNSTABLE_POINT.pointStyle : base.pointStyle)),
    pointRadius: unstable.map((u) => (u ? UNSTABLE_POINT.radius : base.radius)),
    pointBorderWidth: unstable.map((u) => (u ? UNSTABLE_POINT.borderWidth : 1)),
  };
}

declare module 'chart.js' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type parameter is Chart.js's
  interface PluginOptionsByType<TType extends ChartType> {
    /** barValuesPlugin's: how each bar's figure is written above it, in which colour. */
    barValues?: { format: (value: number) => string; color: string };
  }
}

/**
 * Writes each bar's figure above it (where `plugins.barValues` is set): beside a bar of 2.5, one
 * of 0.04 is a sliver at the axis, and only its number says what it is.
 */
export const barValuesPlugin: Plugin<'bar' | 'barWithErrorBars'> = {
  id: 'barValues',
  afterDatasetsDraw(chart) {
    // The options as given: Chart.js would call a function in its resolved options as a
    // scriptable option, with its context instead of the value.
    const { format, color } = chart.config.options?.plugins?.barValues ?? {};
    if (!format || !color) return;
    const { ctx } = chart;
    ctx.save();
    ctx.fillStyle = color;
    ctx.font = `600 12px ${ChartJS.defaults.font.family ?? 'sans-serif'}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    chart.data.datasets.forEach((dataset, i) => {
      const meta = chart.getDatasetMeta(i);
      if (meta.hidden) return;
      meta.data.forEach((bar, j) => {
        const datum = dataset.data[j] as { y?: number | null } | number | null | undefined;
        const value = typeof datum === 'number' ? datum : datum?.y;
        if (value == null) return;
        const { x, y } = bar.getProps(['x', 'y'], true) as { x: number; y: number };
        ctx.fillText(format(value), x, y - 3);
      });
    });
    ctx.restore();
  },
};

/** A dataset may name the point shape its legend entry shows (`legendPointStyle`): Chart.js
 *  would show its first point's, which may be an unstable ×. */
export const legendShowsSeriesStyle = {
  labels: {
    generateLabels: (chart: ChartJS) =>
      ChartJS.defaults.plugins.legend.labels.generateLabels(chart).map((label) => {
        const dataset = chart.data.datasets[label.datasetIndex ?? -1] as { legendPointStyle?: PointStyle } | undefined;
        return dataset?.legendPointStyle ? { ...label, pointStyle: dataset.legendPointStyle } : label;
      }),
  },
};

// ───────────── axes ─────────────

/**
 * Options every live chart shares: points arrive already as {x, y} (no parsing) and up to
 * ten times a second, so nothing animates.
 */
export const liveChartOptions = {
  animation: false,
  parsing: false,
  normalized: true,
  interaction: { mode: 'nearest', intersect: false },
} as const;

/** The x axis of every over-time chart: seconds since the run started, from the runner's clock. */
export function timeAxis(xMax: number | undefined, theme: ChartTheme) {
  return {
    type: 'linear',
    min: 0,
    max: xMax,
    title: { display: true, text: i18next.t('chart.timeAxis', { ns: 'common' }), color: theme.text },
    grid: { color: theme.grid },
    ticks: { color: theme.text },
  } as const;
}

/** The options of a chart over a run's time (its QPS, latency, server stats): liveChartOptions,
 *  the run's seconds along x (timeAxis), and the chart's own y axes and plugins. */
export function overTimeOptions(
  xMax: number | undefined,
  theme: ChartTheme,
  own: Pick<ChartOptions<'line'>, 'scales' | 'plugins'>,
): ChartOptions<'line'> {
  return { ...liveChartOptions, ...own, scales: { x: timeAxis(xMax, theme), ...own.scales } };
}

/**
 * A log axis's tick label: only 1, 2 and 5 of each decade are written (as Chart.js's own
 * log ticks), so the labels never crowd; the others stay as grid lines.
 */
export function logTickLabel(value: number, format: (value: number) => string): string {
  if (!(value > 0)) return '';
  const mantissa = Math.round(value / 10 ** Math.floor(Math.log10(value) + 1e-9));
  return mantissa === 1 || mantissa === 2 || mantissa === 5 ? format(value) : '';
}

interface LatencyAxisOptions {
  /** A log scale, so that one slow outlier does not flatten the rest. */
  log: boolean;
  /** Microseconds per unit of the plotted values (1000 when they are in ms). */
  usPerUnit: number;
  title: string;
  theme: ChartTheme;
}

/** A y axis of latency; its ticks in the unit that fits, never "0.0 µs" at the foot. */
export function latencyAxis({ log, usPerUnit, title, theme }: LatencyAxisOptions) {
  const format = (value: number) => formatLatencyTickUs(value * usPerUnit);
  return {
    type: log ? 'logarithmic' : 'linear',
    beginAtZero: !log,
    title: { display: true, text: log ? i18next.t('chart.logScale', { ns: 'common', title }) : title, color: theme.text },
    grid: { color: theme.grid },
    ticks: {
      color: theme.text,
      callback: (value: number | string) => (log ? logTickLabel(Number(value), format) : format(Number(value))),
    },
  } as const;
}

/**
 * The x axis of a series over a varied value (connections, payload…). On a log scale Chart.js
 * ticks every 1…9 × 10ⁿ and their labels run into each other; ticked at the values measured
 * instead, with any that would still overlap dropped (autoSkip), it says what was run.
 */
export function variedAxis(values: readonly number[], log: boolean, text: string, theme: ChartTheme) {
  return {
    type: log ? 'logarithmic' : 'linear',
    title: { display: true, text, color: theme.text },
    grid: { color: theme.grid },
    ...(log
      ? {
          afterBuildTicks: (axis: { ticks: { value: number }[] }) => {
            axis.ticks = values.map((value) => ({ value }));
          },
        }
      : {}),
    ticks: { color: theme.text, autoSkip: true, autoSkipPadding: 8, maxRotation: 0, callback: (value: number | string) => formatInt(Number(value)) },
  } as const;
}

/** A y axis from zero for one figure (QPS, calls…), its ticks written by `format`. */
export function valueAxis(text: string, format: (value: number) => string, theme: ChartTheme) {
  return {
    type: 'linear',
    beginAtZero: true,
    title: { display: true, text, color: theme.text },
    grid: { color: theme.grid },
    ticks: { color: theme.text, callback: (value: number | string) => format(Number(value)) },
  } as const;
}

export { ChartJS };
