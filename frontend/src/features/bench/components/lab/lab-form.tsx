import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { RunField, Server, VariedField } from '@/lib/api-schemas';

import { fieldProblem, knobProblem, type FieldValue, type LabSetup } from '../../lib/lab-setup';

import { FieldInput, KnobInput } from './field-input';

interface LabFormProps {
  setup: LabSetup;
  onChange: (setup: LabSetup) => void;
  fields: RunField[];
  servers: Server[];
}

function toggled(list: string[], id: string, on: boolean, order: string[]): string[] {
  const next = on ? [...list, id] : list.filter((s) => s !== id);
  return order.filter((s) => next.includes(s));
}

/** Which servers to run: one runs alone, several are compared on one chart. A chosen C server
 *  can be opened in the editor, to change and run its own version. */
function ServerPicker({ setup, onChange, servers }: Omit<LabFormProps, 'fields'>) {
  const { t } = useTranslation('bench');
  const order = servers.map((s) => s.id);
  return (
    <fieldset className="lab-form__servers" data-testid="lab-servers">
      <legend>{t('lab.form.servers')}</legend>
      <p className="lab-form__hint">{t('lab.form.serversHint')}</p>
      <ul>
        {servers.map((server) => (
          <li key={server.id}>
            <label>
              <input
                type="checkbox"
                value={server.id}
                checked={setup.servers.includes(server.id)}
                onChange={(e) => { onChange({ ...setup, servers: toggled(setup.servers, server.id, e.target.checked, order) }); }}
              />{' '}
              {server.title} <code>{server.id}</code>
            </label>
            {server.language === 'c' && setup.servers.includes(server.id) ? (
              <>
                {' · '}
                <Link to={`/edit/${encodeURIComponent(server.id)}`} className="lab-form__edit">
                  <Trans
                    t={t}
                    i18nKey="lab.form.edit"
                    values={{ server: server.id }}
                    components={{ hidden: <span className="visually-hidden" /> }}
                  />
                </Link>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Every run field, with its label, unit, range and help from the backend. */
function RunFields({ setup, onChange, fields }: Omit<LabFormProps, 'servers'>) {
  const { t } = useTranslation('bench');
  const set = (name: string, value: FieldValue) => { onChange({ ...setup, fields: { ...setup.fields, [name]: value } }); };
  return (
    <fieldset className="lab-form__fields" data-testid="lab-fields">
      <legend>{t('lab.form.run')}</legend>
      {fields.map((field) => {
        const value = setup.fields[field.name] ?? field.default;
        const varied = setup.vary === field.name;
        return (
          <FieldInput
            key={field.name}
            field={field}
            value={value}
            disabled={varied}
            problem={varied ? null : fieldProblem(field, value, t)}
            onChange={(v) => { set(field.name, v); }}
          />
        );
      })}
    </fieldset>
  );
}

/** The knobs of each chosen server that has some, set per server. */
function ServerKnobs({ setup, onChange, servers }: Omit<LabFormProps, 'fields'>) {
  const { t } = useTranslation('bench');
  const chosen = servers.filter((s) => setup.servers.includes(s.id) && s.knobs.length > 0);
  if (chosen.length === 0) return null;
  const set = (server: string, name: string, value: FieldValue) => { onChange({ ...setup, knobs: { ...setup.knobs, [server]: { ...setup.knobs[server], [name]: value } } }); };
  return (
    <>
      {chosen.map((server) => (
        <fieldset key={server.id} className="lab-form__knobs" data-testid={`lab-knobs-${server.id}`}>
          <legend>
            <Trans t={t} i18nKey="lab.form.knobsOf" values={{ title: server.title, id: server.id }} components={{ code: <code /> }} />
          </legend>
          {server.knobs.map((knob) => {
            const value = setup.knobs[server.id]?.[knob.name] ?? knob.default;
            return (
              <KnobInput
                key={knob.name}
                knob={knob}
                value={value}
                problem={knobProblem(knob, value, t)}
                onChange={(v) => { set(server.id, knob.name, v); }}
              />
            );
          })}
        </fieldset>
      ))}
    </>
  );
}

function parseValues(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number);
}

/** Vary one field over several values: one run per server and value, drawn as lines. */
function SweepFields({ setup, onChange, fields }: Omit<LabFormProps, 'servers'>) {
  const { t } = useTranslation('bench');
  const varyId = useId();
  const valuesId = useId();
  // The text as typed ("10, 100, "): parsing it on every key would eat the trailing comma.
  const [text, setText] = useState(setup.values.join(', '));
  const sweepable = fields.filter((f) => f.sweepable);
  const vary = (name: string) => { onChange({ ...setup, vary: name ? (name as VariedField) : null, values: name ? parseValues(text) : [] }); };
  return (
    <fieldset className="lab-form__sweep" data-testid="lab-sweep">
      <legend>{t('lab.form.sweep')}</legend>
      <div className="lab-field">
        <label htmlFor={varyId}>{t('lab.form.vary')}</label>
        <select id={varyId} value={setup.vary ?? ''} onChange={(e) => { vary(e.target.value); }}>
          <option value="">{t('lab.form.varyNothing')}</option>
          {sweepable.map((f) => (
            <option key={f.name} value={f.name}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      {setup.vary ? (
        <div className="lab-field">
          <label htmlFor={valuesId}>{t('lab.form.values')}</label>
          <input
            id={valuesId}
            type="text"
            inputMode="decimal"
            value={text}
            placeholder={t('lab.form.valuesPlaceholder')}
            aria-describedby={`${valuesId}-help`}
            onChange={(e) => {
              setText(e.target.value);
              onChange({ ...setup, values: parseValues(e.target.value) });
            }}
          />
          <p className="lab-field__help" id={`${valuesId}-help`}>
            {t('lab.form.valuesHelp')}
          </p>
        </div>
      ) : null}
    </fieldset>
  );
}

/** The lab's whole form: servers, run fields, knobs per server, and an optional sweep. */
export function LabForm(props: LabFormProps) {
  const { t } = useTranslation('bench');
  return (
    <form className="lab-form" aria-label={t('lab.form.label')} onSubmit={(e) => { e.preventDefault(); }}>
      <ServerPicker setup={props.setup} onChange={props.onChange} servers={props.servers} />
      <RunFields setup={props.setup} onChange={props.onChange} fields={props.fields} />
      <ServerKnobs setup={props.setup} onChange={props.onChange} servers={props.servers} />
      <SweepFields setup={props.setup} onChange={props.onChange} fields={props.fields} />
    </form>
  );
}
