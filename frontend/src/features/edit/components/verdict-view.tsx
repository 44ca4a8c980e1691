import { useTranslation } from 'react-i18next';

import { formatInt } from '@/lib/format';

import type { Criterion, Measured, Verdict } from '../api/exercises';
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

/** Why a verdict failed, by the name the judge gives it (verdict.failed) that is not a
 *  criterion's: what stopped or spoiled the run. */
const RUN_REASONS = ['build', 'check', 'run', 'starved', 'invalid', 'unstable'] as const;
type RunReason = (typeof RUN_REASONS)[number];

function isRunReason(kind: string): kind is RunReason {
  return (RUN_REASONS as readonly string[]).includes(kind);
}

/** A reason in the reader's language: a criterion in the exercise's own (translated) words; a
 *  run that stopped or cannot be judged by what happened, with the judge's detail after it
 *  (a compiler's or a check's message, which stays as the tool wrote it). */
function Reason({ name, reason, says }: { name: string | undefined; reason: string; says: Map<string, string> }) {
  const { t } = useTranslation('edit');
  const criterion = name === undefined ? undefined : says.get(name);
  if (criterion !== undefined) return <li>{criterion}</li>;
  const [kind = '', check = ''] = (name ?? '').split(':');
  if (!isRunReason(kind)) return <li>{reason}</li>;
  return (
    <li>
      <strong>{t(`verdict.why.${kind}`, { check })}</strong> {reason}
    </li>
  );
}

function MeasuredRow({ measured, says }: { measured: Measured; says: string | undefined }) {
  const { t } = useTranslation('edit');
  return (
    <tr data-ok={measured.ok}>
      <td>{says ?? measured.says}</td>
      <td className="verdict__number">{formatMeasured(measured.value, t)}</td>
      <td className="verdict__number">{measured.limit != null ? formatMeasured(measured.limit, t) : '—'}</td>
      <td className={`verdict__met verdict__met--${measured.ok ? 'ok' : 'not'}`}>{measured.ok ? t('verdict.met') : t('verdict.notMet')}</td>
    </tr>
  );
}

/**
 * An exercise's verdict on one answer: passed or not, each criterion with what the run
 * measured against its limit, and the reasons it failed (a criterion missed, or a build or
 * check that stopped the run before anything was measured). `criteria` are the exercise's in
 * the reader's language: the verdict names each by its id, and is shown in their words.
 */
export function VerdictView({ verdict, criteria = [] }: { verdict: Verdict; criteria?: Criterion[] }) {
  const { t } = useTranslation('edit');
  const says = new Map(criteria.map((c) => [c.id, c.says]));
  return (
    <div className={`verdict verdict--${verdict.status}`} data-testid="verdict" data-status={verdict.status}>
      <p className="verdict__headline">{headline(verdict.status, t)}</p>
      {verdict.reasons.length ? (
        <ul className="verdict__reasons" aria-label={t('verdict.reasons')} data-testid="verdict-reasons">
          {verdict.reasons.map((reason, i) => (
            <Reason key={reason} name={verdict.failed[i]} reason={reason} says={says} />
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
                <MeasuredRow key={m.id} measured={m} says={says.get(m.id)} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
