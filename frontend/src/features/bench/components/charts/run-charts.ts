/**
 * A run's four charts as one module: run-figures loads them (and Chart.js with them) when the
 * first is drawn, in one chunk.
 */
export { LatencyLiveChart } from './latency-live-chart';
export { LatencyPercentileChart } from './latency-percentile-chart';
export { QpsChart } from './qps-chart';
export { ServerStatsChart } from './server-stats-chart';
