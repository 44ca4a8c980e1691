import { describe, expect, it } from 'vitest';

import type { HostNoise } from './api-schemas';
import { pairSpread, runInterval, runSpread, verdictParts } from './verdict';

// sigma 5 % from 20 runs in 4 sets: 16 degrees of freedom, t = 2.1199 (the backend's quantile)
const noise: HostNoise = { sigma: 0.05, runs: 20, groups: 4, measured_at: '2026-11-28T00:00:00Z', freedom: 16, quantile: 2.1199 };

describe('verdict', () => {
  it('gives a single run the range t·sigma wide, and a pair of runs √2 times that', () => {
    expect(runSpread(noise)).toBeCloseTo(0.106, 3);
    expect(pairSpread(noise)).toBeCloseTo(0.106 * Math.SQRT2, 3);
  });

  it('puts a single run between value·e^(±t·sigma), even in ratio as the backend does', () => {
    const [low, high] = runInterval(200_000, noise);
    expect(low).toBeCloseTo(200_000 * Math.exp(-0.105995), 0);
    expect(high / 200_000).toBeCloseTo(200_000 / low, 10);
  });

  it('reads a verdict as its sentence and percentages, the near end first', () => {
    const change = { estimate: -0.06, low: -0.09, high: -0.03, level: 0.95, count: 5, method: 'paired_log_ratio_t' as const };
    expect(verdictParts({ subject: 'a', reference: 'b', metric: 'qps', change, call: 'lower' })).toEqual({
      key: 'lower',
      values: { low: '3 %', high: '9 %' },
    });
    const wide = { ...change, low: -0.04, high: 0.11 };
    expect(verdictParts({ subject: 'a', reference: 'b', metric: 'qps', change: wide, call: 'no_difference' })).toEqual({
      key: 'noDifference',
      values: { width: '11 %' },
    });
    expect(verdictParts({ subject: 'a', reference: 'b', metric: 'qps', change: null, call: 'too_few' }).key).toBe('tooFew');
  });
});
