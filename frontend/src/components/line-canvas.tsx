import type { ChartData, ChartOptions, DefaultDataPoint, Plugin } from 'chart.js';
import { Line } from 'react-chartjs-2';

interface LineCanvasProps<TData, TLabel> {
  data: ChartData<'line', TData, TLabel>;
  options: ChartOptions<'line'>;
  plugins?: Plugin<'line'>[];
  /** What the chart shows, said to screen readers (the canvas is a picture to them). */
  label: string;
}

/** A line chart's canvas as every chart of the course draws it: each dataset kept by its `id`
 *  (a new point extends its line, nothing is drawn anew), a picture named `label`. */
export function LineCanvas<TData = DefaultDataPoint<'line'>, TLabel = unknown>({ data, options, plugins, label }: LineCanvasProps<TData, TLabel>) {
  return <Line data={data} options={options} plugins={plugins} datasetIdKey="id" aria-label={label} role="img" />;
}
