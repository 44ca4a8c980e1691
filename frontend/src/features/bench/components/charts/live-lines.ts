import type { ChartDataset } from 'chart.js';

import { lineLook } from '@/lib/chart';

/** One figure a live chart draws (p50, CPU…): its dataset id, its name in words, its colour,
 *  and where it differs from the chart's first y axis and solid line. */
export interface LiveFigure<K extends string> {
  id: K;
  name: string;
  colour: string;
  dash?: readonly number[];
  yAxisID?: string;
}

export type LiveLine<P> = ChartDataset<'line', P[]> & { id: string };

/**
 * A run's lines on a live chart, one per figure, each `pointRadius` big; over a recorded
 * reference (its label, and its `referenceSeries`), each figure again from the reference's
 * series, dimmer and dotted with points half a pixel smaller, and every label says whose line
 * it is (`liveWord` for the run's).
 */
export function liveLines<K extends string, P>(
  figures: readonly LiveFigure<K>[],
  series: Record<K, P[]>,
  reference: { label: string } | null | undefined,
  referenceSeries: Record<K, P[]> | null,
  { pointRadius, liveWord }: { pointRadius: number; liveWord: string },
): LiveLine<P>[] {
  const axis = (figure: LiveFigure<K>) => (figure.yAxisID === undefined ? {} : { yAxisID: figure.yAxisID });
  const lines: LiveLine<P>[] = figures.map((figure) => ({
    id: figure.id,
    label: reference ? `${figure.name} · ${liveWord}` : figure.name,
    data: series[figure.id],
    ...axis(figure),
    ...lineLook(figure.colour, 'live', [...(figure.dash ?? [])]),
    pointRadius,
  }));
  if (!reference || !referenceSeries) return lines;
  return lines.concat(
    figures.map((figure) => ({
      id: `reference:${figure.id}`,
      label: `${figure.name} · ${reference.label}`,
      data: referenceSeries[figure.id],
      ...axis(figure),
      ...lineLook(figure.colour, 'reference'),
      pointRadius: pointRadius - 0.5,
    })),
  );
}
