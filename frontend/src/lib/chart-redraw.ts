/**
 * A Chart.js chart drawn again, off screen, at the size of an exported picture (a copy of its
 * data, options and plugins), and its legend read as words and colours. The chart on the page
 * is left as it is: resizing it would make the page jump. Loaded on export only.
 */
import { Chart } from 'chart.js';

import type { LegendEntry } from './chart-picture';

/** What the redraw reads of a chart's configuration. Loosely typed on purpose: Chart.js's own
 *  generic types, compared here for every chart type at once, upset tsc's checks elsewhere. */
interface LooseDataset {
  label?: string;
  hidden?: boolean;
  data: unknown[];
  borderColor?: unknown;
  backgroundColor?: unknown;
}
interface LooseConfig {
  type: string;
  data: { labels?: unknown[]; datasets: LooseDataset[] };
  options?: { plugins?: { legend?: object } & Record<string, unknown> } & Record<string, unknown>;
  plugins?: unknown[];
}

export interface RedrawnChart {
  image: HTMLCanvasElement;
  /** CSS px. */
  width: number;
  height: number;
  legend: LegendEntry[];
}

/** A colour a dataset is drawn with, as one string: its first when it has one per bar. */
function colourOf(value: unknown, index = 0): string | null {
  const colour = Array.isArray(value) ? (value[index] as unknown) : value;
  return typeof colour === 'string' && !/rgba\([^)]*,\s*0\)$/.test(colour) ? colour : null;
}

/** The chart's legend in words: a dataset per entry, or, for one dataset coloured bar by bar
 *  (a comparison's bars), a bar per entry named by its label. */
function legendOf(datasets: readonly LooseDataset[], labels: readonly unknown[] | undefined): LegendEntry[] {
  const [only] = datasets;
  if (datasets.length === 1 && only && Array.isArray(only.borderColor ?? only.backgroundColor) && labels?.length) {
    return labels.map((label, i) => ({
      label: String(label),
      colour: colourOf(only.borderColor, i) ?? colourOf(only.backgroundColor, i) ?? '#888888',
    }));
  }
  return datasets
    .filter((d) => typeof d.label === 'string' && d.label !== '' && !d.hidden)
    .map((d) => ({ label: d.label ?? '', colour: colourOf(d.borderColor) ?? colourOf(d.backgroundColor) ?? '#888888' }));
}

/** A plain canvas (no Chart.js chart on it) scaled to `width`, its aspect kept. */
function scaled(canvas: HTMLCanvasElement, width: number, ratio: number): RedrawnChart {
  const aspect = canvas.width > 0 ? canvas.height / canvas.width : 0.5;
  const height = Math.round(width * aspect);
  const image = document.createElement('canvas');
  image.width = width * ratio;
  image.height = height * ratio;
  image.getContext('2d')?.drawImage(canvas, 0, 0, image.width, image.height);
  return { image, width, height, legend: [] };
}

/**
 * Draws the chart on `canvas` again at `width`×`height` CSS px and `ratio` device px each,
 * without its own legend (the picture's says it in words) or tooltips. A canvas Chart.js did
 * not draw is scaled instead.
 */
export function redrawChart(canvas: HTMLCanvasElement, { width, height, ratio }: { width: number; height: number; ratio: number }): RedrawnChart {
  const live = Chart.getChart(canvas);
  if (!live) return scaled(canvas, width, ratio);
  // Off screen but in the document, where Chart.js reads fonts and styles as on the page.
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.style.cssText = `position:fixed;left:-${width * 4}px;top:0;width:${width}px;height:${height}px;pointer-events:none;`;
  const copy = document.createElement('canvas');
  copy.width = width;
  copy.height = height;
  host.append(copy);
  document.body.append(host);
  const config = live.config as unknown as LooseConfig;
  const datasets = config.data.datasets.map((d) => ({ ...d, data: [...d.data] }));
  const labels = config.data.labels ? [...config.data.labels] : undefined;
  const options = config.options ?? {};
  let chart: Chart | null = null;
  try {
    chart = new Chart(copy, {
      type: config.type,
      data: { labels, datasets },
      options: {
        ...options,
        responsive: false,
        maintainAspectRatio: false,
        animation: false,
        devicePixelRatio: ratio,
        plugins: { ...options.plugins, legend: { ...options.plugins?.legend, display: false }, tooltip: { enabled: false } },
      },
      plugins: [...(config.plugins ?? [])],
    } as never);
    // The bitmap outlives the chart: destroying it clears its canvas.
    const image = document.createElement('canvas');
    image.width = copy.width;
    image.height = copy.height;
    image.getContext('2d')?.drawImage(copy, 0, 0);
    return { image, width, height, legend: legendOf(datasets, labels) };
  } finally {
    chart?.destroy();
    host.remove();
  }
}
