/**
 * Chart.js set-up shared by every chart: only the pieces the course uses are
 * registered, and defaults fit a projector (no animation, readable fonts).
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
} from 'chart.js';

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
);

ChartJS.defaults.animation = false;
ChartJS.defaults.font.family =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
ChartJS.defaults.font.size = 13;
ChartJS.defaults.color = '#374151';
ChartJS.defaults.maintainAspectRatio = false;
ChartJS.defaults.plugins.legend.labels.usePointStyle = true;
ChartJS.defaults.plugins.legend.labels.boxHeight = 8;

/** Colour-blind-safe palette (Okabe–Ito), strong enough for a projector. */
export const palette = {
  blue: '#0072B2',
  orange: '#E69F00',
  vermilion: '#D55E00',
  green: '#009E73',
  purple: '#CC79A7',
  sky: '#56B4E9',
  grey: '#8a8f98',
  ink: '#1f2937',
} as const;

export const gridColor = 'rgba(31, 41, 55, 0.10)';

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
export function timeAxis(xMax: number | undefined) {
  return {
    type: 'linear',
    min: 0,
    max: xMax,
    title: { display: true, text: 'time since start (s)' },
    grid: { color: gridColor },
  } as const;
}

/** A y axis in milliseconds of latency. */
export const latencyAxis = {
  type: 'linear',
  beginAtZero: true,
  title: { display: true, text: 'latency (ms)' },
  grid: { color: gridColor },
} as const;

/** A y axis from zero for one figure (QPS, p99…), its ticks written by `format`. */
export function valueAxis(text: string, format: (value: number) => string) {
  return {
    type: 'linear',
    beginAtZero: true,
    title: { display: true, text },
    grid: { color: gridColor },
    ticks: { callback: (value: number | string) => format(Number(value)) },
  } as const;
}

export { ChartJS };
