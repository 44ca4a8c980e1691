import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { Knob, RunField, Server, VariedField } from '@/lib/api-schemas';

import { editPath, shortServerId } from '../../lib/edit-names';
import { problemsAt, refuses, type LabProblem } from '../../lib/lab-checks';
import { knobLayout, knobValue, withSharedKnob } from '../../lib/lab-knobs';
import type { FieldValue, LabSetup } from '../../lib/lab-setup';

import { FieldInput, FieldProblems, KnobInput } from './field-input';

interface LabFormProps {
  setup: LabSetup;
  onChange: (setup: LabSetup) => void;
  fields: RunField[];
  servers: Server[];
  /** Every problem with the setup (lab-checks.ts), each said beside its place. */
  problems: LabProblem[];
}

function toggled(list: string[], id: string, on: boolean, order: string[]): string[] {
  const next = on ? [...list, id] : list.filter((s) => s !== id);
  return order.filter((s) => next.includes(s));
}

/** Which servers to run: one runs alone, several are compared on one chart. A chosen C server
 *  can be opened in the editor, to change and run its own version. */
function ServerPicker({ setup, onChange, servers, problems }: Omit<LabFormProps, 'fields'>) {
  const { t } = useTranslation('bench');
  const order = servers.map((s) => s.id);
  const problemId = useId();
  const here = problemsAt(problems, 'servers');
  return (
    <fieldset className="lab-form__servers" data-testid="lab-servers" aria-describedby={here.length ? problemId : undefined}>
      <legend>{t('lab.form.servers')}</legend>
      <p className="lab-form__hint">{t('lab.form.serversHint')}</p>
      <FieldProblems id={problemId} problems={here} />
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
              {server.title} <code>{shortServerId(server.id)}</code>
            </label>
            {server.language === 'c' && setup.servers.includes(server.id) ? (
              <>
                {' · '}
                <Link to={editPath(server.id)} className="lab-form__edit">
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
function RunFields({ setup, onChange, fields, problems }: Omit<LabFormProps, 'servers'>) {
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
            problems={varied ? [] : problemsAt(problems, `field.${field.name}`)}
            onChange={(v) => { set(field.name, v); }}
          />
        );
      })}
    </fieldset>
  );
}

type KnobChange = (server: string, name: string, value: FieldValue) => void;

interface OwnKnobsProps {
  server: Server;
  knobs: Knob[];
  setup: LabSetup;
  problems: LabProblem[];
  /** Open to begin with: the only server's knobs are the ones to set. */
  openFirst: boolean;
  onSet: KnobChange;
}

/** One server's own knobs, folded away until opened (several servers' knobs made the page
 *  thousands of pixels tall); open while one is set away from its default or is wrong. */
function OwnKnobs({ server, knobs, setup, problems, openFirst, onSet }: OwnKnobsProps) {
  const { t } = useTranslation('bench');
  const set = knobs.filter((k) => knobValue(setup, server.id, k) !== k.default).length;
  const wrong = knobs.some((k) => refuses(problemsAt(problems, `knob.${server.id}.${k.name}`)));
  const [open, setOpen] = useState(openFirst || set > 0);
  return (
    <details
      className="lab-form__knobs"
      data-testid={`lab-knobs-${server.id}`}
      open={open || wrong}
      onToggle={(e) => { setOpen(e.currentTarget.open); }}
    >
      <summary>
        <Trans t={t} i18nKey="lab.form.knobsOf" values={{ title: server.title, id: server.id }} components={{ code: <code /> }} />{' '}
        <span className="lab-form__count">{set > 0 ? t('lab.form.knobCountSet', { count: knobs.length, set }) : t('lab.form.knobCount', { count: knobs.length })}</span>
      </summary>
      {knobs.map((knob) => (
        <KnobInput
          key={knob.name}
          knob={knob}
          server={server.id}
          value={knobValue(setup, server.id, knob)}
          problems={problemsAt(problems, `knob.${server.id}.${knob.name}`)}
          onChange={(v) => { onSet(server.id, knob.name, v); }}
        />
      ))}
    </details>
  );
}

/** The server whose catalog entry a shared knob is: its words are that server's (the help
 *  may word the knob for each server). */
function ownerOf(knob: Knob, servers: Server[]): string | undefined {
  return servers.find((s) => s.knobs.includes(knob))?.id;
}

/** The chosen servers' knobs: those they all have alike once, then each server's own. */
function ServerKnobs({ setup, onChange, servers, problems }: Omit<LabFormProps, 'fields'>) {
  const { t } = useTranslation('bench');
  const layout = knobLayout(setup, servers);
  const onSet: KnobChange = (server, name, value) => { onChange({ ...setup, knobs: { ...setup.knobs, [server]: { ...setup.knobs[server], [name]: value } } }); };
  return (
    <>
      {layout.shared.length > 0 ? (
        <fieldset className="lab-form__shared" data-testid="lab-knobs-shared">
          <legend>{t('lab.form.sharedKnobs')}</legend>
          <p className="lab-form__hint">{t('lab.form.sharedKnobsHint')}</p>
          {layout.shared.map(({ knob, value }) => (
            <KnobInput
              key={knob.name}
              knob={knob}
              server={ownerOf(knob, servers)}
              value={value}
              problems={setup.servers.flatMap((id) => problemsAt(problems, `knob.${id}.${knob.name}`))}
              onChange={(v) => { onChange(withSharedKnob(setup, knob.name, v)); }}
            />
          ))}
        </fieldset>
      ) : null}
      {layout.own.map(({ server, knobs }) => (
        <OwnKnobs
          // Drawn anew when it becomes (or stops being) the only server's, which opens first.
          key={`${server.id}:${String(setup.servers.length === 1)}`}
          server={server}
          knobs={knobs}
          setup={setup}
          problems={problems}
          openFirst={setup.servers.length === 1}
          onSet={onSet}
        />
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
function SweepFields({ setup, onChange, fields, problems }: Omit<LabFormProps, 'servers'>) {
  const { t } = useTranslation('bench');
  const varyId = useId();
  const valuesId = useId();
  // The text as typed ("10, 100, "): parsing it on every key would eat the trailing comma.
  const [text, setText] = useState(setup.values.join(', '));
  const sweepable = fields.filter((f) => f.sweepable);
  const here = problemsAt(problems, 'values');
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
            aria-invalid={refuses(here) ? true : undefined}
            aria-describedby={`${valuesId}-help${here.length ? ` ${valuesId}-problem` : ''}`}
            onChange={(e) => {
              setText(e.target.value);
              onChange({ ...setup, values: parseValues(e.target.value) });
            }}
          />
          <p className="lab-field__help" id={`${valuesId}-help`}>
            {t('lab.form.valuesHelp')}
          </p>
          <FieldProblems id={`${valuesId}-problem`} problems={here} />
        </div>
      ) : null}
    </fieldset>
  );
}

/** The lab's whole form: servers, run fields, knobs (shared once, then per server), and an
 *  optional sweep. */
export function LabForm({ fields, servers, ...shared }: LabFormProps) {
  const { t } = useTranslation('bench');
  return (
    <form className="lab-form" aria-label={t('lab.form.label')} onSubmit={(e) => { e.preventDefault(); }}>
      <ServerPicker {...shared} servers={servers} />
      <RunFields {...shared} fields={fields} />
      <ServerKnobs {...shared} servers={servers} />
      <SweepFields {...shared} fields={fields} />
    </form>
  );
}
