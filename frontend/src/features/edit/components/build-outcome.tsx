import { Trans, useTranslation } from 'react-i18next';

import type { CheckOutcome, CheckState, Diagnostic } from '../lib/check-state';
import { describeCheck, describeNote, diagnosticsOf } from '../lib/check-state';
import { countDiagnostics, diagnosticText, diagnosticWhere, isInEditedFile, severityWord } from '../lib/diagnostics';

interface DiagnosticListProps {
  diagnostics: Diagnostic[];
  /** Moves the editor's cursor to a message's line; without it the list is text only. */
  onGoTo?: (line: number, column: number | null) => void;
}

/** The compiler's messages as a list: each one of the edited file moves the cursor to its
 *  line; the linker's, and those about another file, are said here only. */
export function DiagnosticList({ diagnostics, onGoTo }: DiagnosticListProps) {
  const { t } = useTranslation('edit');
  if (diagnostics.length === 0) return null;
  return (
    <section className="diagnostics" aria-labelledby="diagnostics-title" data-testid="diagnostics">
      <h3 id="diagnostics-title">{t('diagnostics.title', { counts: countDiagnostics(diagnostics, t) })}</h3>
      <ul>
        {diagnostics.map((d, i) => {
          const where = diagnosticWhere(d, t);
          const body = (
            <>
              <span className={`diagnostic__severity diagnostic__severity--${d.severity}`}>{severityWord(d.severity, t)}</span>
              {where ? <span className="diagnostic__where">{where}</span> : null}
              <span className="diagnostic__message">{diagnosticText(d)}</span>
            </>
          );
          const { line } = d;
          return (
            <li key={i} className="diagnostic" data-testid="diagnostic" data-severity={d.severity} data-line={line ?? undefined}>
              {onGoTo && isInEditedFile(d) && line != null ? (
                <button type="button" className="diagnostic__go" onClick={() => { onGoTo(line, d.column ?? null); }}>
                  {body}
                </button>
              ) : (
                <span className="diagnostic__text">{body}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A protocol's failed check: which, what it said, and what was expected against what came. */
export function FailedCheck({ check }: { check: CheckOutcome }) {
  const { t } = useTranslation('edit');
  const failed = check.failed;
  return (
    <div className="danger-box danger-box--small failed-check" data-testid="failed-check">
      <p>
        <strong>
          {failed ? (
            <Trans
              t={t}
              i18nKey="outcome.failedCheckNamed"
              values={{ protocol: check.protocol, check: failed.check }}
              components={{ code: <code /> }}
            />
          ) : (
            t('outcome.failedCheck', { protocol: check.protocol })
          )}
        </strong>
        {failed ? t('outcome.failedSays', { message: failed.message }) : ''}
      </p>
      {failed?.expected != null || failed?.got != null ? (
        <dl className="failed-check__compare">
          {failed.expected != null ? (
            <div>
              <dt>{t('outcome.expected')}</dt>
              <dd>
                <pre>{failed.expected}</pre>
              </dd>
            </div>
          ) : null}
          {failed.got != null ? (
            <div>
              <dt>{t('outcome.got')}</dt>
              <dd>
                <pre>{failed.got}</pre>
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {check.passed.length ? (
        <p className="edit__muted">{t('outcome.passedBefore', { checks: check.passed.join(t('listSeparator')) })}</p>
      ) : null}
    </div>
  );
}

interface BuildOutcomeProps {
  state: CheckState;
  onGoTo?: (line: number, column: number | null) => void;
}

/** What the last build and check came to, below its one-line status (which says why it
 *  failed): the checks that passed, the compiler's messages, or the check that failed and the
 *  server's last log lines. */
export function BuildOutcome({ state, onGoTo }: BuildOutcomeProps) {
  const { t } = useTranslation('edit');
  const diagnostics = diagnosticsOf(state);
  const checks = state.result?.checks ?? state.checks;
  const failedCheck = state.failure?.check ?? null;
  return (
    <div className="build-outcome" data-testid="build-outcome">
      {failedCheck ? <FailedCheck check={failedCheck} /> : null}
      <DiagnosticList diagnostics={diagnostics} onGoTo={onGoTo} />
      {checks.length ? (
        <ul className="build-outcome__checks" aria-label={t('outcome.checks')} data-testid="checks">
          {checks.map((check) => (
            <li key={check.protocol} data-ok={check.ok}>
              {t(check.ok ? 'outcome.checkPassed' : 'outcome.checkFailed', { check: describeCheck(check, t) })}
            </li>
          ))}
        </ul>
      ) : null}
      {state.failure?.logs.length ? (
        <details className="failure-details" data-testid="failure-logs">
          <summary>{t('outcome.serverLog', { count: state.failure.logs.length })}</summary>
          <pre>{state.failure.logs.join('\n')}</pre>
        </details>
      ) : null}
      {state.notes.length ? (
        <ul className="build-outcome__notes">
          {state.notes.map((note) => {
            const text = describeNote(note, t);
            return <li key={text}>{text}</li>;
          })}
        </ul>
      ) : null}
    </div>
  );
}
