import { doneData, progress } from '@/testing/fixtures';

import {
  intervalDistribution,
  liveLatencySeries,
  normalisePercentiles,
  percentileAxisMax,
  percentileLabel,
  percentileToX,
  plottedCount,
  qpsSeries,
  statsSeries,
  summaryDistribution,
  timeAxisMax,
  warmupBands,
} from './chart-data';
import type { ProgressPoint } from './run-state';

function point(t: number, phase: 'warmup' | 'measure', qps = 100): ProgressPoint {
  const p = progress(t, phase, qps);
  return { t, phase, qps, errors: 0, ...p.latency_us };
}

describe('chart data', () => {
  const points = [point(1, 'warmup', 10), point(2, 'measure', 20), point(3, 'measure', 30)];

  it('splits QPS into warm-up and measured series', () => {
    expect(qpsSeries(points)).toEqual({ warmup: [{ x: 1, y: 10 }], measure: [{ x: 2, y: 20 }, { x: 3, y: 30 }] });
    expect(warmupBands(points)).toEqual([{ start: 0, end: 1 }]);
    expect(warmupBands([point(1, 'measure')])).toEqual([]);
  });

  it('breaks the lines between repetitions and shades each warm-up with the restart before it', () => {
    const repeated = [...points, point(5, 'warmup', 40), point(6, 'measure', 50)];
    expect(qpsSeries(repeated)).toEqual({
      warmup: [{ x: 1, y: 10 }, { x: 5, y: null }, { x: 5, y: 40 }],
      measure: [{ x: 2, y: 20 }, { x: 3, y: 30 }, { x: 6, y: null }, { x: 6, y: 50 }],
    });
    expect(liveLatencySeries(repeated).p99.map((p) => p.y)).toEqual([0.9, 0.9, null, 0.9]);
    expect(plottedCount(qpsSeries(repeated).measure)).toBe(3);
    expect(warmupBands(repeated)).toEqual([{ start: 0, end: 1 }, { start: 3, end: 5 }]);
  });

  it('plots live p50/p99 in ms for measured intervals only', () => {
    expect(liveLatencySeries(points).p99).toEqual([{ x: 2, y: 0.9 }, { x: 3, y: 0.9 }]);
  });

  it('converts server stats to CPU % and MiB, and finds the shared time axis end', () => {
    const stats = [{ t: 3.4, cpuPercent: 50, memoryBytes: 2 * 1024 * 1024 }];
    expect(statsSeries(stats)).toEqual({ cpu: [{ x: 3.4, y: 50 }], memory: [{ x: 3.4, y: 2 }] });
    expect(timeAxisMax(points, stats)).toBe(4);
    expect(timeAxisMax([], [])).toBeUndefined();
    expect(timeAxisMax(points, stats, 6)).toBe(6);
  });

  it('maps percentiles onto the HdrHistogram axis', () => {
    expect(percentileToX(50, 1000)).toBe(2);
    expect(percentileToX(90, 1000)).toBeCloseTo(10);
    expect(percentileToX(99.9, 1e5)).toBeCloseTo(1000);
    expect(percentileToX(100, 1000)).toBe(1000);
    expect(['0%', '50%', '90%', '99%', '99.9%'].map((_, i) => percentileLabel([1, 2, 10, 100, 1000][i]!))).toEqual([
      '0%',
      '50%',
      '90%',
      '99%',
      '99.9%',
    ]);
  });

  it('accepts fractional percentiles and sizes the axis to the data', () => {
    expect(normalisePercentiles([{ percentile: 0.5, latency_us: 1 }, { percentile: 0.99, latency_us: 2 }])[1]?.percentile).toBe(99);
    expect(percentileAxisMax([{ percentile: 99, latency_us: 1 }])).toBe(1000);
    expect(percentileAxisMax([{ percentile: 99.99, latency_us: 1 }])).toBe(10000);
  });

  it('builds the whole-run distribution and the latest interval', () => {
    const dist = summaryDistribution(doneData.summary, 1000);
    expect(dist[0]).toEqual({ x: 1, y: 0.04 });
    expect(dist.at(-1)).toEqual({ x: 1000, y: 5 });
    const fallback = summaryDistribution({ ...doneData.summary, percentiles: [] }, 1000);
    expect(fallback.map((p) => p.y)).toEqual([0.12, 0.25, 0.9, 2.1, 5]);
    expect(intervalDistribution(points).map((p) => p.x)).toEqual([2, 10, 100, 1000]);
    expect(intervalDistribution([point(1, 'warmup')])).toEqual([]);
  });
});
