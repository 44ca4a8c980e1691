import { describe, expect, it } from 'vitest';

import type { CpuUse, Drift, Interference } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';

import { describeDrift, describeInterference, stabilityFigures } from './stability';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

function cpuUse(cpus: string, interference: number): CpuUse {
  return { cpus, judged: true, others: interference, steal: 0, interference };
}

const quiet: Interference = { limit: 0.1, server: cpuUse('0', 0.02), loadgen: cpuUse('1', 0.031) };
const steady: Drift = { limit: 0.3, judged: true, intervals: 5, median_qps: 120000, drifted: [] };

describe('stability figures', () => {
  it('gives the share of each pinned CPU that others took, against its limit (or the one both shared)', () => {
    expect(describeInterference(quiet, t)).toBe(
      "others took 2 % of the server's CPU 0 (limit 10 %) and 3.1 % of the load generator's CPU 1 (limit 10 %)",
    );
    const own: Interference = { ...quiet, server: { ...cpuUse('0', 0.02), limit: 0.07 }, loadgen: { ...cpuUse('1', 0.031), limit: 0.09 } };
    expect(describeInterference(own, t)).toBe(
      "others took 2 % of the server's CPU 0 (limit 7 %) and 3.1 % of the load generator's CPU 1 (limit 9 %)",
    );
    const sets: Interference = { ...quiet, server: cpuUse('0,2', 0.5) };
    expect(describeInterference(sets, t)).toContain("50 % of the server's CPUs 0,2");
  });

  it('says when too few Docker samples fell inside the measured time to judge', () => {
    const unjudged: CpuUse = { cpus: '0', judged: false, note: 'fewer than two Docker stats samples' };
    expect(describeInterference({ limit: 0.1, server: unjudged, loadgen: unjudged }, t)).toBe(
      'CPU use by others not checked: fewer than two Docker stats samples',
    );
    expect(describeInterference({ ...quiet, loadgen: unjudged }, t)).toBe(
      "others took 2 % of the server's CPU 0 (limit 10 %)",
    );
  });

  it('lists the intervals that left the median, three at most', () => {
    expect(describeDrift(steady, t)).toBe('QPS within 30 % of its median (120,000 req/s) in all 5 intervals');
    expect(describeDrift({ ...steady, intervals: 1 }, t)).toBe('QPS within 30 % of its median (120,000 req/s) in all 1 interval');
    const drifted = [4, 5, 6, 7].map((t) => ({ t_s: t + 0.04, qps: 37000, departure: -0.69 }));
    expect(describeDrift({ ...steady, drifted }, t)).toBe(
      'QPS off its median (120,000 req/s) by more than 30 % in 4 of 5 intervals: 37,000 at 4.0 s, 37,000 at 5.0 s, 37,000 at 6.0 s and 1 more',
    );
    expect(describeDrift({ ...steady, judged: false, intervals: 2, note: '2 measured intervals' }, t)).toBe(
      'drift not checked: 2 measured intervals',
    );
  });

  it('joins both, and has nothing for a result recorded before the checks', () => {
    expect(stabilityFigures(quiet, steady, t)).toContain(' · QPS within 30 %');
    expect(stabilityFigures(null, undefined, t)).toBeNull();
  });
});
