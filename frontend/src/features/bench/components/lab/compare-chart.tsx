import { Chart } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';

import { ChartFrame } from '@/components/chart-frame';
import { useChartTheme } from '@/hooks/use-chart-theme';
import { seriesStyle, withAlpha } from '@/lib/chart';

import type { CompareRow } from '../../lib/compare';

interface FigureChartProps {
  testId: string;
  title: string;
  rows: CompareRow[];
  figure: (row: CompareRow) => number | null;
  /** The figure's 95 % interval, drawn as whiskers, where it has one. */
  interval?: (row: CompareRow) => [number, number] | null;
  serverOrder: string[];
  format: (value: number) => string;
}

/** One figure of every row as a bar, each coloured (and outlined) as its server, with its
 *  interval as whiskers where it has one. */
export function FigureChart({ testId, title, rows, figure, interval, serverOrder, format }: FigureChartProps) {
  const { t } = useTranslation('bench');
  const theme = useChartTheme();
  const drawn = rows.filter((r) => figure(r) !== null);
  const styles = drawn.map((r) => seriesStyle(Math.max(0, serverOrder.indexOf(r.server))));
  const bars = drawn.map((r) => {
    const x = figure(r) ?? 0;
    const range = interval?.(r);
    return range ? { x, xMin: range[0], xMax: range[1] } : { x };
  });
  const whiskers = bars.some((b) => 'xMin' in b);
  return (
    <ChartFrame
      testId={testId}
      title={title}
      points={drawn.length}
      emptyMessage={t('compare.noFigure')}
      caption={whiskers ? t('compare.whiskerCaption') : undefined}
    >
      <Chart
        type="barWithErrorBars"
        aria-label={title}
        role="img"
        data={{
          labels: drawn.map((r) => r.label),
          datasets: [
            {
              label: title,
              data: bars,
              backgroundColor: styles.map((s) => withAlpha(s.colour, 0.55)),
              borderColor: styles.map((s) => s.colour),
              borderWidth: 2,
              errorBarColor: theme.text,
              errorBarWhiskerColor: theme.text,
            },
          ],
        }}
        options={{
          indexAxis: 'y',
          plugins: { legend: { display: false }, tooltip: { callbacks: { label: (c) => format(c.parsed.x) } } },
          scales: {
            x: { beginAtZero: true, ticks: { color: theme.muted, callback: (v) => format(Number(v)) }, grid: { color: theme.grid } },
            y: { ticks: { color: theme.text }, grid: { display: false } },
          },
        }}
      />
    </ChartFrame>
  );
}
