import { i18next } from '@/lib/i18n';
import { doneData, progress } from '@/testing/fixtures';

import {
  intervalDistribution,
  liveLatencySeries,
  normalisePercentiles,
  percentileAxisMax,
  percentileLabel,
  percentileTicks,
  percentileToX,
  plottedCount,
  qpsSeries,
  referenceLabel,
  resultIsUnstable,
  unstablePercentiles,
  statsSeries,
  summaryDistribution,
  timeAxisMax,
  warmupBands,
} from './chart-data';
import type { ProgressPoint } from './run-state';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

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

  it('draws the warm-up band exactly as long as the warm-up asked for, not from the run start', () => {
    // The server took 0.5 s to start (2.5 s with a syscall counter): the axis counts from the run's
    // start, and the band used to span 0–1.5 s (0–2.5 s) for a 1 s warm-up.
    const started = [point(1.5, 'warmup'), point(2.5, 'measure'), point(3.5, 'measure')];
    expect(warmupBands(started, 1)).toEqual([{ start: 0.5, end: 1.5 }]);
    const counted = [point(2.5, 'warmup'), point(3.5, 'measure'), point(4.5, 'measure')];
    expect(warmupBands(counted, 1)).toEqual([{ start: 1.5, end: 2.5 }]);
    // Without the request: the warm-up intervals times their spacing.
    expect(warmupBands(started)).toEqual([{ start: 0.5, end: 1.5 }]);
    const twoIntervals = [point(1.2, 'warmup'), point(2.2, 'warmup'), point(3.2, 'measure')];
    expect(warmupBands(twoIntervals)[0]?.start).toBeCloseTo(0.2);
    expect(warmupBands(twoIntervals, 2)[0]?.start).toBeCloseTo(0.2);
    // Never before the axis starts.
    expect(warmupBands([point(0.5, 'warmup')], 2)).toEqual([{ start: 0, end: 0.5 }]);
  });

  it('breaks the lines between repetitions and shades each warm-up with the restart before it', () => {
    const repeated = [...points, point(5, 'warmup', 40), point(6, 'measure', 50)];
    expect(qpsSeries(repeated)).toEqual({
      warmup: [{ x: 1, y: 10 }, { x: 5, y: null }, { x: 5, y: 40 }],
      measure: [{ x: 2, y: 20 }, { x: 3, y: 30 }, { x: 6, y: null }, { x: 6, y: 50 }],
    });
    expect(liveLatencySeries(repeated).p99.map((p) => p.y)).toEqual([0.9, 0.9, null, 0.9]);
    expect(plottedCount(qpsSeries(repeated).measure)).toBe(3);
    expect(warmupBands(repeated, 1)).toEqual([{ start: 0, end: 1 }, { start: 4, end: 5 }]);
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

  it('labels 50 % and up only, so no two percentile labels meet', () => {
    expect(percentileTicks(1000).map((t) => percentileLabel(t.value))).toEqual(['50%', '90%', '99%', '99.9%']);
    expect(percentileTicks(100_000).map((t) => t.value)).toEqual([2, 10, 100, 1000, 10_000, 100_000]);
    expect(percentileTicks(1000).some((t) => t.value === 1)).toBe(false);
  });

  it('names the reference by its date and knows an unstable result', () => {
    expect(referenceLabel('2026-11-22T08:00:00+00:00', t)).toBe('reference (recorded 2026-11-22)');
    expect(resultIsUnstable({ ...doneData, stable: false })).toBe(true);
    expect(resultIsUnstable({ ...doneData, stable: true, client: { bound: true } })).toBe(true);
    expect(resultIsUnstable({ ...doneData, stable: true })).toBe(false);
    expect(resultIsUnstable(null)).toBe(false);
  });

  it('marks every point of a short unstable distribution, the labelled percentiles of a long one', () => {
    const few = [{ x: 1, y: 1 }, { x: 2, y: 2 }];
    expect(unstablePercentiles(few, true)).toEqual([true, true]);
    expect(unstablePercentiles(few, false)).toEqual([false, false]);
    const many = Array.from({ length: 250 }, (_, i) => ({ x: 10 ** (i / 100), y: i }));
    const marked = unstablePercentiles(many, true);
    expect(marked.filter(Boolean)).toHaveLength(3); // 50 %, 90 %, 99 %: 99.9 % is past the data
    expect(many.filter((_, i) => marked[i]).map((p) => Math.round(p.x))).toEqual([2, 10, 100]);
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
