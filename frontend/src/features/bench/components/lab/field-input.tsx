import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { Knob, RunField } from '@/lib/api-schemas';

import { knobFormLabel, type FieldValue } from '../../lib/lab-setup';

interface ValueInputProps {
  label: string;
  help: string;
  kind: 'int' | 'float' | 'bool' | 'choice';
  unit?: string | null | undefined;
  min?: number | null | undefined;
  max?: number | null | undefined;
  choices?: readonly (string | number)[] | null | undefined;
  value: FieldValue;
  /** Set when the value is refused: said under the input and linked to it. */
  problem: string | null;
  onChange: (value: FieldValue) => void;
  /** A varied field is set by the sweep's values instead: shown, not editable. */
  disabled?: boolean;
}

function numberText(value: FieldValue): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** One labelled input of the lab's form, with its unit, range and help said beside it. */
function ValueInput({ label, help, kind, unit, min, max, choices, value, problem, onChange, disabled }: ValueInputProps) {
  const id = useId();
  const described = `${id}-help${problem ? ` ${id}-problem` : ''}`;
  const range = min != null || max != null ? ` (${min ?? '…'}–${max ?? '…'}${unit ? ` ${unit}` : ''})` : '';
  let input;
  if (kind === 'bool') {
    input = (
      <input id={id} type="checkbox" checked={value === true} disabled={disabled} aria-describedby={described} onChange={(e) => { onChange(e.target.checked); }} />
    );
  } else if (kind === 'choice') {
    input = (
      <select id={id} value={String(value)} disabled={disabled} aria-describedby={described} onChange={(e) => { onChange(e.target.value); }}>
        {(choices ?? []).map((choice) => (
          <option key={String(choice)} value={String(choice)}>
            {String(choice)}
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        id={id}
        type="number"
        inputMode={kind === 'int' ? 'numeric' : 'decimal'}
        step={kind === 'int' ? 1 : 'any'}
        min={min ?? undefined}
        max={max ?? undefined}
        value={numberText(value)}
        disabled={disabled}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described}
        onChange={(e) => { onChange(e.target.value === '' ? Number.NaN : Number(e.target.value)); }}
      />
    );
  }
  return (
    <div className={`lab-field lab-field--${kind}${problem ? ' lab-field--bad' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="lab-field__input">
        {input}
        {unit && kind !== 'bool' && kind !== 'choice' ? <span className="lab-field__unit">{unit}</span> : null}
      </div>
      <p className="lab-field__help" id={`${id}-help`}>
        {help}
        {range}
      </p>
      {problem ? (
        <p className="lab-field__problem" id={`${id}-problem`}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}

interface FieldInputProps {
  field: RunField;
  value: FieldValue;
  problem: string | null;
  onChange: (value: FieldValue) => void;
  disabled?: boolean;
}

/** A run field from GET /api/lab/fields. */
export function FieldInput({ field, value, problem, onChange, disabled }: FieldInputProps) {
  const { t } = useTranslation('bench');
  return (
    <ValueInput
      label={field.label}
      help={disabled ? t('lab.form.setBySweep', { help: field.help }) : field.help}
      kind={field.kind}
      unit={field.units}
      min={field.min}
      max={field.max}
      choices={field.choices}
      value={value}
      problem={problem}
      onChange={onChange}
      disabled={disabled}
    />
  );
}

interface KnobInputProps {
  knob: Knob;
  value: FieldValue;
  problem: string | null;
  onChange: (value: FieldValue) => void;
}

/** A server's knob from the catalog (GET /api/servers), by its label, with its unit and range. */
export function KnobInput({ knob, value, problem, onChange }: KnobInputProps) {
  return (
    <ValueInput
      label={knobFormLabel(knob)}
      help={knob.help}
      kind={knob.type === 'enum' ? 'choice' : knob.type === 'bool' ? 'bool' : 'int'}
      unit={knob.unit}
      min={knob.min}
      max={knob.max}
      choices={knob.values}
      value={value}
      problem={problem}
      onChange={onChange}
    />
  );
}
