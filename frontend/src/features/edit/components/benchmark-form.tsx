import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { Server } from '@/lib/api-schemas';

import { comparisonRequest, createComparison, type ComparisonBase } from '../api/variants';
import { DEFAULT_BASE, DEFAULT_ROUNDS, formProblem, MAX_ROUNDS, MIN_ROUNDS, WITHIN } from '../lib/benchmark-settings';

interface BenchmarkFormProps {
  server: Server;
  variantId: string;
}

interface NumberFieldProps {
  label: string;
  unit?: string;
  value: number;
  min: number;
  max?: number;
  step?: number;
  onChange: (value: number) => void;
  testId: string;
}

function NumberField({ label, unit, value, min, max, step = 1, onChange, testId }: NumberFieldProps) {
  const id = useId();
  return (
    <div className="benchmark-form__field">
      <label htmlFor={id}>
        {label}
        {unit ? <span className="edit__muted"> ({unit})</span> : null}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={Number.isFinite(value) ? value : ''}
        onChange={(e) => { onChange(e.target.valueAsNumber); }}
        data-testid={testId}
        required
      />
    </div>
  );
}

/**
 * The original against the edit, in rounds (each round runs both, one after the other in an
 * order drawn each round, so a drift of the machine falls on both alike), as many as this
 * host's noise says a ±5 % verdict needs, at most the rounds given: POST /api/sweeps, then the
 * series' page, which gives the verdict with its interval.
 */
export function BenchmarkForm({ server, variantId }: BenchmarkFormProps) {
  const { t } = useTranslation('edit');
  const navigate = useNavigate();
  const protocolId = useId();
  const [base, setBase] = useState<ComparisonBase>(DEFAULT_BASE);
  const [rounds, setRounds] = useState(DEFAULT_ROUNDS);
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const problem = formProblem(base, rounds, t);
  const set = (field: keyof ComparisonBase) => (value: number) => { setBase((b) => ({ ...b, [field]: value })); };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (problem) return;
    setSending(true);
    setRefused(null);
    try {
      const created = await createComparison(comparisonRequest(server.id, variantId, rounds, base, WITHIN));
      void navigate(`/sweeps/${encodeURIComponent(created.id)}`);
    } catch (error) {
      setRefused(error instanceof Error ? error.message : String(error));
      setSending(false);
    }
  };

  return (
    <form className="benchmark-form" aria-labelledby="benchmark-title" onSubmit={(e) => void submit(e)} data-testid="benchmark-form">
      <h3 id="benchmark-title">{t('benchmark.title')}</h3>
      <p className="edit__muted">{t('benchmark.intro', { server: server.id, within: `${WITHIN * 100} %` })}</p>
      <div className="benchmark-form__fields">
        <div className="benchmark-form__field">
          <label htmlFor={protocolId}>{t('benchmark.protocol')}</label>
          <select
            id={protocolId}
            value={base.protocol}
            onChange={(e) => { setBase((b) => ({ ...b, protocol: e.target.value === 'http' ? 'http' : 'echo' })); }}
            data-testid="benchmark-protocol"
          >
            {server.protocols.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <NumberField label={t('benchmark.connections')} value={base.connections} min={1} onChange={set('connections')} testId="benchmark-connections" />
        <NumberField label={t('benchmark.duration')} unit={t('benchmark.seconds')} value={base.duration_s} min={0.5} step={0.5} onChange={set('duration_s')} testId="benchmark-duration" />
        <NumberField label={t('benchmark.warmup')} unit={t('benchmark.seconds')} value={base.warmup_s} min={0} step={0.5} onChange={set('warmup_s')} testId="benchmark-warmup" />
        <NumberField label={t('benchmark.payload')} unit={t('benchmark.bytes')} value={base.payload_bytes} min={1} onChange={set('payload_bytes')} testId="benchmark-payload" />
        <NumberField label={t('benchmark.rounds')} value={rounds} min={MIN_ROUNDS} max={MAX_ROUNDS} onChange={setRounds} testId="benchmark-rounds" />
      </div>
      <div className="benchmark-form__actions">
        <button type="submit" className="button button--primary" disabled={sending || problem !== null}>
          {sending ? t('benchmark.queueing') : t('benchmark.submit')}
        </button>
        {problem ? <p className="edit__problem">{problem}</p> : null}
        {refused ? (
          <p className="edit__problem" role="alert" data-testid="benchmark-refused">
            {refused}
          </p>
        ) : null}
      </div>
    </form>
  );
}
