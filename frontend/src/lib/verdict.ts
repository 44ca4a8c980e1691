/**
 * A verdict (c10klab.uncertainty's Comparison) as the parts its sentence needs, whatever the
 * feature's words: which sentence, and its percentages. The near end of an interval first, so
 * "3 to 9 % more" reads the same for a rise and a fall.
 */
import type { Comparison, HostNoise } from './api-schemas';
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

/** A single run's 95 % range from its host's run-to-run sigma (of log QPS): ±t·sigma, with
 *  Student's t at the estimate's degrees of freedom (the backend's, `quantile`). */
export function runSpread(noise: HostNoise): number {
  return noise.quantile * noise.sigma;
}

/** Where a second run of a figure measured once would land, 95 %: value·e^(±t·sigma), as the
 *  backend's `single_interval` (even in ratio, as the noise is of log QPS). */
export function runInterval(value: number, noise: HostNoise): [number, number] {
  const spread = runSpread(noise);
  return [value * Math.exp(-spread), value * Math.exp(spread)];
}

/** How far a second run of the same could land from a first, each scattering by sigma:
 *  ±t·sigma·√2. */
export function pairSpread(noise: HostNoise): number {
  return runSpread(noise) * Math.SQRT2;
}
