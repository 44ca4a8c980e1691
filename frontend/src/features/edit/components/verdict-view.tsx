import { formatInt } from '@/lib/format';

import type { Measured, Verdict } from '../api/exercises';

import './exercises.css';

const significant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** A measured figure: a count whole, a rate per request to 3 significant digits. */
function formatMeasured(value: number | null | undefined): string {
  if (value == null) return 'not measured';
  return Number.isInteger(value) || Math.abs(value) >= 100 ? formatInt(value) : significant.format(value);
}

const HEADLINE: Record<Verdict['status'], string> = {
  passed: 'Passed: your answer does what the exercise asks.',
  failed: 'Not yet: your answer did not pass.',
  pending: 'Being judged: the run is still under way.',
};

function MeasuredRow({ measured }: { measured: Measured }) {
  return (
    <tr data-ok={measured.ok}>
      <td>{measured.says}</td>
      <td className="verdict__number">{formatMeasured(measured.value)}</td>
      <td className="verdict__number">{measured.limit != null ? formatMeasured(measured.limit) : '—'}</td>
      <td className={`verdict__met verdict__met--${measured.ok ? 'ok' : 'not'}`}>{measured.ok ? '✓ met' : '✗ not met'}</td>
    </tr>
  );
}

/**
 * An exercise's verdict on one answer: passed or not, each criterion with what the run
 * measured against its limit, and the reasons it failed (a criterion missed, or a build or
 * check that stopped the run before anything was measured).
 */
export function VerdictView({ verdict }: { verdict: Verdict }) {
  return (
    <div className={`verdict verdict--${verdict.status}`} data-testid="verdict" data-status={verdict.status}>
      <p className="verdict__headline">{HEADLINE[verdict.status]}</p>
      {verdict.reasons.length ? (
        <ul className="verdict__reasons" aria-label="Why it did not pass" data-testid="verdict-reasons">
          {verdict.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
      {verdict.measured.length ? (
        <div className="table-scroll" tabIndex={0} role="group" aria-label="What the run measured, scrolls sideways">
          <table className="verdict__table" data-testid="verdict-measured">
            <caption>What the run measured</caption>
            <thead>
              <tr>
                <th scope="col">It must show</th>
                <th scope="col">Measured</th>
                <th scope="col">Limit</th>
                <th scope="col">Met?</th>
              </tr>
            </thead>
            <tbody>
              {verdict.measured.map((m) => (
                <MeasuredRow key={m.says} measured={m} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
