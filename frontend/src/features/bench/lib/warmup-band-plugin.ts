import type { ChartType, Plugin } from 'chart.js';

declare module 'chart.js' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- must match Chart.js's declaration
  interface PluginOptionsByType<TType extends ChartType> {
    warmupBand?: { end: number | null; label?: string };
  }
}

/**
 * Shades the warm-up interval [0, end] on a time chart so warm-up figures are
 * visibly set apart from the measured ones.
 */
export const warmupBandPlugin: Plugin = {
  id: 'warmupBand',
  beforeDatasetsDraw(chart) {
    const options = chart.options.plugins?.warmupBand;
    const end = options?.end;
    const x = chart.scales.x;
    if (end == null || !x) return;
    const { ctx, chartArea } = chart;
    const left = Math.max(chartArea.left, x.getPixelForValue(0));
    const right = Math.min(chartArea.right, x.getPixelForValue(end));
    if (right <= left) return;
    ctx.save();
    ctx.fillStyle = 'rgba(138, 143, 152, 0.14)';
    ctx.fillRect(left, chartArea.top, right - left, chartArea.bottom - chartArea.top);
    ctx.fillStyle = 'rgba(75, 85, 99, 0.9)';
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    const label = options?.label ?? 'warm-up';
    if (ctx.measureText(label).width + 8 < right - left) ctx.fillText(label, left + 4, chartArea.top + 4);
    ctx.restore();
  },
};
