/**
 * A verdict (c10klab.uncertainty's Comparison) as the parts its sentence needs, whatever the
 * feature's words: which sentence, and its percentages. The near end of an interval first, so
 * "3 to 9 % more" reads the same for a rise and a fall.
 */
import type { Comparison } from './api-schemas';
import { formatPercent } from './format';

export type VerdictKey = 'higher' | 'lower' | 'noDifference' | 'tooFew';

export interface VerdictParts {
  /** camelCase: i18next would read "too_few" as the plural form "few" of "too". */
  key: VerdictKey;
  values: { low?: string; high?: string; width?: string };
}

const percent = (v: number) => formatPercent(Math.abs(v) * 100);

export function verdictParts({ change, call }: Comparison): VerdictParts {
  if (!change || call === 'too_few') return { key: 'tooFew', values: {} };
  if (call === 'no_difference') {
    return { key: 'noDifference', values: { width: percent(Math.max(-change.low, change.high)) } };
  }
  const [near, far] = [change.low, change.high].sort((a, b) => Math.abs(a) - Math.abs(b));
  return { key: call, values: { low: percent(near ?? 0), high: percent(far ?? 0) } };
}

/** The two-sided 95 % quantile of a normal scatter. */
const Z95 = 1.96;

/** A single run's 95 % range from its host's run-to-run sigma (of log QPS): ±1.96·sigma. */
export function runSpread(sigma: number): number {
  return Z95 * sigma;
}

/** How far a second run of the same could land from a first, each scattering by sigma:
 *  ±1.96·sigma·√2. */
export function pairSpread(sigma: number): number {
  return runSpread(sigma) * Math.SQRT2;
}
