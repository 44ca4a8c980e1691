import type { ChartType, Plugin } from 'chart.js';

import { i18next } from '@/lib/i18n';

import type { WarmupBand } from './chart-data';

declare module 'chart.js' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- must match Chart.js's declaration
  interface PluginOptionsByType<TType extends ChartType> {
    warmupBand?: { bands: WarmupBand[]; label?: string; textColour?: string };
  }
}

/**
 * Shades each warm-up interval on a time chart (one per repetition) so warm-up figures are
 * visibly set apart from the measured ones. The grey reads on a light and a dark page alike;
 * the label takes the theme's muted text colour.
 */
export const warmupBandPlugin: Plugin = {
  id: 'warmupBand',
  beforeDatasetsDraw(chart) {
    const options = chart.options.plugins?.warmupBand;
    const x = chart.scales.x;
    if (!options || !x) return;
    const { ctx, chartArea } = chart;
    // The charts pass their label in the page's language; drawn without one, ask i18next now.
    const label = options.label ?? i18next.t('bench:chart.warmup');
    ctx.save();
    // Chart.js hands plugins their options deep-partial.
    for (const { start, end } of options.bands ?? []) {
      if (start == null || end == null) continue;
      const left = Math.max(chartArea.left, x.getPixelForValue(start));
      const right = Math.min(chartArea.right, x.getPixelForValue(end));
      if (right <= left) continue;
      ctx.fillStyle = 'rgba(138, 143, 152, 0.16)';
      ctx.fillRect(left, chartArea.top, right - left, chartArea.bottom - chartArea.top);
      ctx.fillStyle = options.textColour ?? 'rgba(75, 85, 99, 0.9)';
      ctx.font = '12px system-ui, sans-serif';
      ctx.textBaseline = 'top';
      if (ctx.measureText(label).width + 8 < right - left) ctx.fillText(label, left + 4, chartArea.top + 4);
    }
    ctx.restore();
  },
};
