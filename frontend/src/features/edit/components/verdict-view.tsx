import { useTranslation } from 'react-i18next';

import { formatInt } from '@/lib/format';

import type { Measured, Verdict } from '../api/exercises';
import type { EditT } from '../lib/check-state';

import './exercises.css';

const significant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** A measured figure: a count whole, a rate per request to 3 significant digits. */
function formatMeasured(value: number | null | undefined, t: EditT): string {
  if (value == null) return t('verdict.notMeasured');
  return Number.isInteger(value) || Math.abs(value) >= 100 ? formatInt(value) : significant.format(value);
}

/** The verdict in a sentence, by its status. */
function headline(status: Verdict['status'], t: EditT): string {
  switch (status) {
    case 'passed':
      return t('verdict.headline.passed');
    case 'failed':
      return t('verdict.headline.failed');
    case 'pending':
      return t('verdict.headline.pending');
  }
}

function MeasuredRow({ measured }: { measured: Measured }) {
  const { t } = useTranslation('edit');
  return (
    <tr data-ok={measured.ok}>
      <td>{measured.says}</td>
      <td className="verdict__number">{formatMeasured(measured.value, t)}</td>
      <td className="verdict__number">{measured.limit != null ? formatMeasured(measured.limit, t) : '—'}</td>
      <td className={`verdict__met verdict__met--${measured.ok ? 'ok' : 'not'}`}>{measured.ok ? t('verdict.met') : t('verdict.notMet')}</td>
    </tr>
  );
}

/**
 * An exercise's verdict on one answer: passed or not, each criterion with what the run
 * measured against its limit, and the reasons it failed (a criterion missed, or a build or
 * check that stopped the run before anything was measured).
 */
export function VerdictView({ verdict }: { verdict: Verdict }) {
  const { t } = useTranslation('edit');
  return (
    <div className={`verdict verdict--${verdict.status}`} data-testid="verdict" data-status={verdict.status}>
      <p className="verdict__headline">{headline(verdict.status, t)}</p>
      {verdict.reasons.length ? (
        <ul className="verdict__reasons" aria-label={t('verdict.reasons')} data-testid="verdict-reasons">
          {verdict.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
      {verdict.measured.length ? (
        <div className="table-scroll" tabIndex={0} role="group" aria-label={t('verdict.tableScroll')}>
          <table className="verdict__table" data-testid="verdict-measured">
            <caption>{t('verdict.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('verdict.column.criterion')}</th>
                <th scope="col">{t('verdict.column.measured')}</th>
                <th scope="col">{t('verdict.column.limit')}</th>
                <th scope="col">{t('verdict.column.met')}</th>
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
