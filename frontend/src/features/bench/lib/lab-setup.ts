/**
 * The lab's experiment as the learner sets it up, and the one request it becomes: a run (one
 * server, nothing varied) or a sweep (several servers, or one field over several values). The
 * setup lives in the page's URL (`#/lab?servers=c-epoll,c-poll&connections=1000`), so a lab
 * experiment can be linked, reloaded and opened from a lesson's block or the history.
 */
import type { TFunction } from 'i18next';

import { VARIED_FIELDS, type Knob, type RunField, type RunRequest, type SweepRequest, type VariedField } from '@/lib/api-schemas';

import { knobLabel } from './knob-display';

export type FieldValue = RunField['default'];
export type KnobValue = Knob['default'];

export interface LabSetup {
  servers: string[];
  /** Run fields the learner set; the rest take their defaults. */
  fields: Record<string, FieldValue>;
  /** Per server: the knobs set away from their defaults. */
  knobs: Record<string, Record<string, KnobValue>>;
  /** A sweep's varied field and its values; null for one run per server. */
  vary: VariedField | null;
  values: number[];
}

/** What the setup runs as: the title the widget shows and the one request it posts. */
export type LabPlan = { kind: 'run'; title: string; request: RunRequest } | { kind: 'sweep'; title: string; sweep: SweepRequest };

/** What the form calls a knob (of `server`, when it is one server's): its label in the
 *  interface's words, capitalised as the run fields are. */
export function knobFormLabel(knob: Knob, t: TFunction<'bench'>, server?: string): string {
  const label = knobLabel(knob.name, knob, t, server);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export const EMPTY_SETUP: LabSetup = { servers: [], fields: {}, knobs: {}, vary: null, values: [] };

function isVaried(name: string): name is VariedField {
  return (VARIED_FIELDS as readonly string[]).includes(name);
}

// ─────────────────────────── the request ───────────────────────────

/** Every field's value in the setup's runs: the learner's, else the field's default. (The
 *  form's checks are in lab-checks.ts.) */
export function runValues(setup: LabSetup, fields: RunField[]): Record<string, FieldValue> {
  return Object.fromEntries(fields.map((f) => [f.name, setup.fields[f.name] ?? f.default]));
}

/** Only the fields set away from their defaults: what the request and the URL carry. A field
 *  the list does not know (it is still loading) is kept. */
function changedFields(setup: LabSetup, fields: RunField[]): Record<string, FieldValue> {
  const defaults = new Map(fields.map((f) => [f.name, f.default]));
  return Object.fromEntries(Object.entries(setup.fields).filter(([name, value]) => defaults.get(name) !== value));
}

function setKnobs(setup: LabSetup): Record<string, Record<string, KnobValue>> {
  return Object.fromEntries(
    setup.servers.filter((s) => Object.keys(setup.knobs[s] ?? {}).length > 0).map((s) => [s, setup.knobs[s] ?? {}]),
  );
}

/** What a run of one server entry asks for: a server, or a learner's edit (`variant:<id>`, as a
 *  sweep names it) as its base server (`bases`) with `variant`. */
function runTarget(entry: string, bases: Record<string, string>): Pick<RunRequest, 'server' | 'variant'> {
  const base = bases[entry];
  return base ? { server: base, variant: entry.slice(entry.indexOf(':') + 1) } : { server: entry };
}

/** The setup as the one request it becomes: a run for one server with nothing varied, else a
 *  sweep (several servers without `vary` compare them at one connection count). `bases` names
 *  the server each of the learner's edits among them edits (a sweep sends the edit's entry). */
export function planFor(setup: LabSetup, fields: RunField[], t: TFunction<'bench'>, bases: Record<string, string> = {}): LabPlan {
  const changed = changedFields(setup, fields) as Partial<RunRequest>;
  const knobs = setKnobs(setup);
  const [first = ''] = setup.servers;
  const title = setup.servers.length > 1 || setup.vary ? t('lab.sweepTitle') : t('lab.runTitle');
  if (setup.servers.length === 1 && !setup.vary) {
    const request: RunRequest = { ...changed, ...runTarget(first, bases), ...(knobs[first] ? { knobs: knobs[first] } : {}) };
    return { kind: 'run', title, request };
  }
  const { [setup.vary ?? 'connections']: varied, ...base } = changed as Record<string, FieldValue>;
  const vary = setup.vary ?? 'connections';
  const values = setup.vary ? setup.values : [typeof varied === 'number' ? varied : Number(fields.find((f) => f.name === 'connections')?.default ?? 100)];
  const sweep: SweepRequest = { servers: setup.servers, vary, values, base };
  if (Object.keys(knobs).length > 0) sweep.server_knobs = knobs;
  return { kind: 'sweep', title, sweep };
}

/** About how long the setup takes to run, in seconds (warm-up and duration per repetition). */
export function plannedSeconds(setup: LabSetup, fields: RunField[]): number {
  const values = runValues(setup, fields);
  const each = (Number(values.warmup_s) + Number(values.duration_s)) * (Number(values.repetitions) || 1);
  return each * setup.servers.length * (setup.vary ? setup.values.length : 1);
}

// ─────────────────────────── the URL ───────────────────────────

function encodeValue(value: FieldValue): string {
  return typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
}

function decodeValue(raw: string, kind: 'int' | 'float' | 'bool' | 'choice' | 'enum'): FieldValue {
  if (kind === 'bool') return raw === 'on' || raw === 'true';
  if (kind === 'choice' || kind === 'enum') return raw;
  return raw.trim() === '' ? Number.NaN : Number(raw);
}

function knobKind(knob: Knob | undefined): 'int' | 'bool' | 'enum' {
  if (knob?.type === 'int' || knob?.type === 'bool') return knob.type;
  return 'enum';
}

/** The setup as URL search parameters: only what differs from the defaults. */
export function setupToSearch(setup: LabSetup, fields: RunField[]): string {
  const params = new URLSearchParams();
  if (setup.servers.length) params.set('servers', setup.servers.join(','));
  for (const [name, value] of Object.entries(changedFields(setup, fields))) params.set(name, encodeValue(value));
  for (const [server, knobs] of Object.entries(setKnobs(setup))) {
    for (const [name, value] of Object.entries(knobs)) params.set(`knob.${server}.${name}`, encodeValue(value));
  }
  if (setup.vary) {
    params.set('vary', setup.vary);
    params.set('values', setup.values.join(','));
  }
  return params.toString();
}

/** The lab's route for a setup: what a lesson's "Open in lab" and the history link to. */
export function labUrl(setup: LabSetup = EMPTY_SETUP, fields: RunField[] = []): string {
  const search = setupToSearch(setup, fields);
  return search ? `/lab?${search}` : '/lab';
}

/** A setup read back from the URL; unknown names are ignored, bad values kept for the form to flag. */
export function setupFromSearch(params: URLSearchParams, fields: RunField[], knobs: Record<string, Knob[]>): LabSetup {
  const servers = (params.get('servers') ?? '').split(',').filter(Boolean);
  const setup: LabSetup = { servers, fields: {}, knobs: {}, vary: null, values: [] };
  for (const field of fields) {
    const raw = params.get(field.name);
    if (raw !== null) setup.fields[field.name] = decodeValue(raw, field.kind);
  }
  for (const [key, raw] of params) {
    const [prefix, server, name] = key.split('.');
    if (prefix !== 'knob' || !server || !name) continue;
    const knob = knobs[server]?.find((k) => k.name === name);
    setup.knobs[server] = { ...setup.knobs[server], [name]: decodeValue(raw, knobKind(knob)) };
  }
  const vary = params.get('vary');
  if (vary && isVaried(vary)) {
    setup.vary = vary;
    setup.values = (params.get('values') ?? '').split(',').filter((v) => v.trim() !== '').map(Number);
  }
  return setup;
}

/** The run fields a request sets (not its origin, nor null ones). */
function givenFields(settings: Record<string, unknown>): Record<string, FieldValue> {
  const { lesson: _lesson, experiment: _experiment, ...rest } = settings;
  return Object.fromEntries(Object.entries(rest).filter((entry): entry is [string, FieldValue] => entry[1] != null));
}

/** Each server's knobs: those for all of them, then its own; none for a server without any. */
function knobsOf(servers: string[], shared: Record<string, KnobValue> = {}, own: Record<string, Record<string, KnobValue>> = {}) {
  const each = servers.map((id) => [id, { ...shared, ...own[id] }] as const);
  return Object.fromEntries(each.filter(([, knobs]) => Object.keys(knobs).length > 0));
}

/** A lesson block's request, or a past run's or sweep's, as a lab setup: "Open in lab". */
export function setupFromRequest(request: RunRequest | SweepRequest): LabSetup {
  if ('servers' in request) {
    const { servers, vary, values, base = {}, server_knobs: own } = request;
    const { knobs, ...settings } = base;
    const fields = givenFields(settings);
    const swept = values.length > 1;
    const [only] = values;
    if (!swept && only !== undefined) fields[vary] = only;
    return { servers, fields, knobs: knobsOf(servers, knobs, own ?? {}), vary: swept ? vary : null, values: swept ? values : [] };
  }
  const { server, knobs, ...settings } = request;
  return { servers: [server], fields: givenFields(settings), knobs: knobsOf([server], knobs), vary: null, values: [] };
}

/** Seconds as a person says them: "45 s", "2 min", "1 min 20 s". */
export function describeSeconds(total: number, t: TFunction<'bench'>): string {
  const seconds = Math.round(total);
  if (seconds < 60) return t('duration.seconds', { seconds });
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? t('duration.minutesSeconds', { minutes, seconds: rest }) : t('duration.minutes', { minutes });
}
