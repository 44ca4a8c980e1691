import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { Knob, RunField } from '@/lib/api-schemas';

import { knobWords } from '../../lib/knob-display';
import { refuses, type LabProblem } from '../../lib/lab-checks';
import { knobFormLabel, type FieldValue } from '../../lib/lab-setup';

/** What an input says of the value it sets, as GET /api/lab/fields says it of a run field. */
type InputSpec = Pick<RunField, 'label' | 'help' | 'kind' | 'units' | 'min' | 'max' | 'choices'>;

interface ValueInputProps {
  spec: InputSpec;
  value: FieldValue;
  /** What is wrong with the value, or with it and another field: said under the input and
   *  linked to it. A sweep's skipped points are said too, but do not mark the value wrong. */
  problems: readonly LabProblem[];
  onChange: (value: FieldValue) => void;
  /** A varied field is set by the sweep's values instead: shown, not editable. */
  disabled?: boolean;
}

function numberText(value: FieldValue): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** One labelled input of the lab's form, with its unit, range and help said beside it. */
/** Each text once: a knob shown once for several servers has the same problem for each. */
function distinctTexts(problems: readonly LabProblem[]): string[] {
  return [...new Set(problems.map((p) => p.text))];
}

/** What is wrong beside an input (red), and which of a sweep's points will be skipped (not
 *  red: the sweep still runs). `id` is what the input's aria-describedby names. */
export function FieldProblems({ id, problems }: { id: string; problems: readonly LabProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <div id={id}>
      {distinctTexts(problems.filter((p) => !p.skips)).map((text) => (
        <p key={text} className="lab-field__problem" data-testid="lab-field-problem">
          {text}
        </p>
      ))}
      {distinctTexts(problems.filter((p) => p.skips)).map((text) => (
        <p key={text} className="lab-field__skipped" data-testid="lab-field-skipped">
          {text}
        </p>
      ))}
    </div>
  );
}

function ValueInput({ spec, value, problems, onChange, disabled }: ValueInputProps) {
  const { label, help, kind, units: unit, min, max, choices } = spec;
  const id = useId();
  const described = `${id}-help${problems.length > 0 ? ` ${id}-problem` : ''}`;
  const invalid = refuses(problems) ? true : undefined;
  const range = min != null || max != null ? ` (${min ?? '…'}–${max ?? '…'}${unit ? ` ${unit}` : ''})` : '';
  let input;
  if (kind === 'bool') {
    input = (
      <input id={id} type="checkbox" checked={value === true} disabled={disabled} aria-describedby={described} onChange={(e) => { onChange(e.target.checked); }} />
    );
  } else if (kind === 'choice') {
    input = (
      <select id={id} value={String(value)} disabled={disabled} aria-invalid={invalid} aria-describedby={described} onChange={(e) => { onChange(e.target.value); }}>
        {(choices ?? []).map((choice) => (
          <option key={choice} value={choice}>
            {choice}
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
        aria-invalid={invalid}
        aria-describedby={described}
        onChange={(e) => { onChange(e.target.value === '' ? Number.NaN : Number(e.target.value)); }}
      />
    );
  }
  return (
    <div className={`lab-field lab-field--${kind}`}>
      <label htmlFor={id}>{label}</label>
      <div className="lab-field__input">
        {input}
        {unit && kind !== 'bool' && kind !== 'choice' ? <span className="lab-field__unit">{unit}</span> : null}
      </div>
      <p className="lab-field__help" id={`${id}-help`}>
        {help}
        {range}
      </p>
      <FieldProblems id={`${id}-problem`} problems={problems} />
    </div>
  );
}

/** A run field from GET /api/lab/fields. */
export function FieldInput({ field, disabled, ...input }: Omit<ValueInputProps, 'spec'> & { field: RunField }) {
  const { t } = useTranslation('bench');
  const spec = disabled ? { ...field, help: t('lab.form.setBySweep', { help: field.help }) } : field;
  return <ValueInput spec={spec} disabled={disabled} {...input} />;
}

/** A server's knob from the catalog (GET /api/servers), said as a run field is, in the
 *  interface's words. */
function knobSpec(knob: Knob, t: TFunction<'bench'>, server?: string): InputSpec {
  const kind = knob.type === 'enum' ? 'choice' : knob.type === 'bool' ? 'bool' : 'int';
  const { help, units } = knobWords(knob.name, knob, t, server);
  return { label: knobFormLabel(knob, t, server), help, kind, units, min: knob.min, max: knob.max, choices: knob.values };
}

/** A server's knob, by its label, with its unit and range. `server` when it is one server's
 *  (a knob shown once for several is said in its words for any of them). */
export function KnobInput({ knob, server, ...input }: Omit<ValueInputProps, 'spec' | 'disabled'> & { knob: Knob; server?: string }) {
  const { t } = useTranslation('bench');
  return <ValueInput spec={knobSpec(knob, t, server)} {...input} />;
}
