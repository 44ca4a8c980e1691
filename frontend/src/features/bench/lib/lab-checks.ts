/**
 * What the lab's form checks before Run: every limit POST /api/runs and POST /api/sweeps apply,
 * read from the contract rather than copied. A field's own bounds and this host's maxima come
 * from GET /api/lab/fields (`fields`), the limits across fields from the same answer
 * (`max_total_connections`, `profile_max_repetitions`, the sweep's maxima), and each server's
 * from the catalog (`limits.max_connections`, `protocols`, `knobs`). Each problem says where it
 * is shown, so the form puts it beside the field it is about, in the interface's language.
 */
import type { TFunction } from 'i18next';

import type { Knob, LabFields, RunField, Server } from '@/lib/api-schemas';

import { knobFormLabel, runValues, type FieldValue, type KnobValue, type LabSetup } from './lab-setup';

/** Where a problem is said: only as Run's reason (`run`), beside the server picker, beside a
 *  run field, beside one server's knob, or beside the sweep's values. */
export type ProblemPlace = 'run' | 'servers' | 'values' | `field.${string}` | `knob.${string}.${string}`;

export interface LabProblem {
  place: ProblemPlace;
  text: string;
  /** A knob's problem is its server's: named when the problem is said away from the knob. */
  server?: string;
  /** True for a sweep's points the API would skip, not refuse: said, but Run stays enabled. */
  skips: boolean;
}

// ─────────────────────────── one value ───────────────────────────

/** A bound with its unit, when the field has one: "19000 connections", "0 s". */
function withUnit(value: number | string, unit: string | null | undefined): string {
  return unit ? `${value} ${unit}` : String(value);
}

function describeBound(field: RunField, value: number, t: TFunction<'bench'>): string | null {
  const label = field.label;
  if (field.min != null && (field.min_exclusive ? value <= field.min : value < field.min)) {
    const bound = withUnit(field.min, field.units);
    return field.min_exclusive ? t('lab.problem.moreThan', { label, bound }) : t('lab.problem.atLeast', { label, bound });
  }
  if (field.max != null && value > field.max) return t('lab.problem.atMostHere', { label, bound: withUnit(field.max, field.units) });
  return null;
}

/** Why a value is refused for a field, or null: the field's own type and bounds, this host's
 *  maximum among them. */
export function fieldProblem(field: RunField, value: FieldValue, t: TFunction<'bench'>): string | null {
  const label = field.label;
  if (field.kind === 'bool') return typeof value === 'boolean' ? null : t('lab.problem.onOff', { label });
  if (field.kind === 'choice') {
    return field.choices?.includes(String(value)) ? null : t('lab.problem.oneOf', { label, choices: field.choices?.join(', ') ?? '' });
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return t('lab.problem.number', { label });
  if (field.kind === 'int' && !Number.isInteger(value)) return t('lab.problem.whole', { label });
  return describeBound(field, value, t);
}

/** Why a knob value (of `server`, when known) is refused, or null (the catalog's type, range
 *  and values). */
export function knobProblem(knob: Knob, value: KnobValue, t: TFunction<'bench'>, server?: string): string | null {
  const label = knobFormLabel(knob, t, server);
  if (knob.type === 'bool') return typeof value === 'boolean' ? null : t('lab.problem.onOff', { label });
  if (knob.type === 'enum') {
    return knob.values?.map(String).includes(String(value)) ? null : t('lab.problem.oneOf', { label, choices: knob.values?.join(', ') ?? '' });
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) return t('lab.problem.whole', { label });
  if (knob.min != null && value < knob.min) return t('lab.problem.atLeast', { label, bound: String(knob.min) });
  if (knob.max != null && value > knob.max) return t('lab.problem.atMost', { label, bound: String(knob.max) });
  return null;
}

// ─────────────────────────── one run ───────────────────────────

/** Every field's value in one run: the setup's, else the field's default. */
export type RunValues = Record<string, FieldValue>;

interface RunRule {
  /** Where it is said: beside this field, or beside the values when one of `about` is varied. */
  field: string;
  about: string[];
  /** A host's limit holds for every server alike; a server's own does not. */
  perServer: boolean;
  check: (values: RunValues, server: Server, lab: LabFields, t: TFunction<'bench'>) => string | null;
}

function labelOf(lab: LabFields, name: string): string {
  return lab.fields.find((f) => f.name === name)?.label ?? name;
}

function numberOf(values: RunValues, name: string): number {
  const value = values[name];
  return typeof value === 'number' ? value : Number.NaN;
}

/** The limits service.validate_request applies across fields or per server. A rule whose
 *  values are not numbers yet is left to the fields' own checks. */
const RUN_RULES: RunRule[] = [
  {
    // A server's own ceiling, e.g. c-select's descriptors below FD_SETSIZE.
    field: 'connections',
    about: ['connections'],
    perServer: true,
    check: (values, server, lab, t) => {
      const field = lab.fields.find((f) => f.name === 'connections');
      const most = server.limits.max_connections;
      // A ceiling no lower than the host's is the field's own bound, said beside it already.
      if (field?.max != null && most >= field.max) return null;
      if (!(numberOf(values, 'connections') > most)) return null;
      return t('lab.problem.serverConnections', { server: server.id, bound: withUnit(most, field?.units) });
    },
  },
  {
    // Idle connections may pass a server's own ceiling, but not the host's with the active ones.
    field: 'idle_connections',
    about: ['connections', 'idle_connections'],
    perServer: false,
    check: (values, _server, lab, t) => {
      const parts = ['connections', 'idle_connections'].map((name) => ({ value: numberOf(values, name), max: lab.fields.find((f) => f.name === name)?.max }));
      const total = parts.reduce((sum, part) => sum + part.value, 0);
      // Either one past its own bound is said beside it already; the sum adds nothing then.
      const alonePast = parts.some((part) => part.max != null && part.value > part.max);
      if (!(total > lab.max_total_connections) || alonePast) return null;
      const units = lab.fields.find((f) => f.name === 'connections')?.units;
      return t('lab.problem.totalConnections', {
        a: labelOf(lab, 'connections'),
        b: labelOf(lab, 'idle_connections'),
        bound: withUnit(lab.max_total_connections, units),
        total,
      });
    },
  },
  {
    field: 'repetitions',
    about: ['repetitions', 'profile'],
    perServer: false,
    check: (values, _server, lab, t) => {
      const profile = String(values.profile);
      const most = lab.profile_max_repetitions[profile];
      if (most === undefined || !(numberOf(values, 'repetitions') > most)) return null;
      return t('lab.problem.profileRepetitions', { profile, label: labelOf(lab, 'repetitions'), bound: most });
    },
  },
  {
    field: 'protocol',
    about: ['protocol'],
    perServer: true,
    check: (values, server, _lab, t) => {
      const protocol = String(values.protocol);
      if ((server.protocols as string[]).includes(protocol)) return null;
      return t('lab.problem.serverProtocol', { server: server.id, protocols: server.protocols.join(', '), protocol });
    },
  },
];

function ruleProblems(values: RunValues, server: Server, lab: LabFields, t: TFunction<'bench'>) {
  return RUN_RULES.flatMap((rule) => {
    const text = rule.check(values, server, lab, t);
    return text ? [{ rule, text }] : [];
  });
}

// ─────────────────────────── the setup ───────────────────────────

function fieldProblems(setup: LabSetup, lab: LabFields, t: TFunction<'bench'>): LabProblem[] {
  const values = runValues(setup, lab.fields);
  const own = lab.fields.filter((f) => f.name !== setup.vary);
  const problems = own.flatMap((field) => {
    const text = fieldProblem(field, values[field.name] ?? field.default, t);
    return text ? [{ place: `field.${field.name}` as const, text, skips: false }] : [];
  });
  const varied = lab.fields.find((f) => f.name === setup.vary);
  const valueProblems = varied ? setup.values.map((v) => fieldProblem(varied, v, t)).filter((p): p is string => p !== null) : [];
  return [...problems, ...valueProblems.map((text) => ({ place: 'values' as const, text, skips: false }))];
}

function knobProblems(setup: LabSetup, servers: Server[], t: TFunction<'bench'>): LabProblem[] {
  return setup.servers.flatMap((id) =>
    Object.entries(setup.knobs[id] ?? {}).flatMap(([name, value]): LabProblem[] => {
      const knob = servers.find((s) => s.id === id)?.knobs.find((k) => k.name === name);
      const text = knob ? knobProblem(knob, value, t, id) : t('lab.problem.noKnob', { server: id, knob: name });
      return text ? [{ place: `knob.${id}.${name}`, text, server: id, skips: false }] : [];
    }),
  );
}

function sweepShapeProblems(setup: LabSetup, lab: LabFields, t: TFunction<'bench'>): LabProblem[] {
  const problems: LabProblem[] = [];
  if (setup.servers.length > lab.max_sweep_servers) {
    problems.push({ place: 'servers', text: t('lab.problem.tooManyServers', { count: setup.servers.length, max: lab.max_sweep_servers }), skips: false });
  }
  if (setup.vary && setup.values.length < 2) problems.push({ place: 'values', text: t('lab.problem.twoValues'), skips: false });
  const runs = setup.servers.length * Math.max(1, setup.vary ? setup.values.length : 1);
  if (runs > lab.max_sweep_points) {
    problems.push({ place: setup.vary ? 'values' : 'servers', text: t('lab.problem.tooMany', { runs, max: lab.max_sweep_points }), skips: false });
  }
  return problems;
}

interface Refusal {
  server: string;
  value: number | null;
  rule: RunRule;
  text: string;
}

/** Each point's run as the API validates it (a run is one point, its value null), and how
 *  many points there are. */
function pointRefusals(setup: LabSetup, lab: LabFields, servers: Server[], t: TFunction<'bench'>): { refusals: Refusal[]; points: number } {
  const base = runValues(setup, lab.fields);
  const values: (number | null)[] = setup.vary ? setup.values : [null];
  const chosen = setup.servers.map((id) => servers.find((s) => s.id === id)).filter((s): s is Server => s !== undefined);
  const refusals = chosen.flatMap((server) =>
    values.flatMap((value) => {
      const point = setup.vary && value !== null ? { ...base, [setup.vary]: value } : base;
      return ruleProblems(point, server, lab, t).map(({ rule, text }) => ({ server: server.id, value, rule, text }));
    }),
  );
  return { refusals, points: chosen.length * values.length };
}

function placeOf(rule: RunRule, vary: string | null): ProblemPlace {
  return vary && rule.about.includes(vary) ? 'values' : `field.${rule.field}`;
}

/** A sweep skips a point the API refuses and runs the rest; it is refused only when no point
 *  is left. A run (one server, one point) is refused outright. A host's limit holds for every
 *  server alike, so a value past it is a mistake to fix, never a point to skip. */
function runProblems(setup: LabSetup, lab: LabFields, servers: Server[], t: TFunction<'bench'>): LabProblem[] {
  const { refusals, points } = pointRefusals(setup, lab, servers, t);
  const refusedPoints = new Set(refusals.map((r) => `${r.server}@${String(r.value)}`));
  const sweep = setup.servers.length > 1 || setup.vary !== null;
  const nothingLeft = refusedPoints.size === points;
  const problems: LabProblem[] = [];
  for (const refusal of refusals) {
    const skips = sweep && refusal.rule.perServer && !nothingLeft;
    const place = placeOf(refusal.rule, setup.vary);
    problems.push({ place, text: skips ? skipText(refusal, refusals, setup, lab, t) : refusal.text, skips });
  }
  return problems;
}

/** "c-select at 2000, 5000 connections will be skipped: …", each server's refusal said once. */
function skipText(refusal: Refusal, all: Refusal[], setup: LabSetup, lab: LabFields, t: TFunction<'bench'>): string {
  if (refusal.value === null) return t('lab.problem.skipServer', { server: refusal.server, problem: refusal.text });
  const same = all.filter((r) => r.server === refusal.server && r.text === refusal.text && r.value !== null).map((r) => r.value);
  const units = lab.fields.find((f) => f.name === setup.vary)?.units;
  return t('lab.problem.skipPoints', { server: refusal.server, values: withUnit(same.join(', '), units), problem: refusal.text });
}

/** Every problem with the setup, in the form's order, each once; none when it can run. */
export function setupProblems(setup: LabSetup, lab: LabFields, servers: Server[], t: TFunction<'bench'>): LabProblem[] {
  const problems: LabProblem[] = [];
  if (setup.servers.length === 0) problems.push({ place: 'run', text: t('lab.problem.pickServer'), skips: false });
  problems.push(...sweepShapeProblems(setup, lab, t), ...fieldProblems(setup, lab, t), ...knobProblems(setup, servers, t));
  problems.push(...runProblems(setup, lab, servers, t));
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.place}|${p.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when a problem marks the value wrong (a sweep's skipped points do not). */
export function refuses(problems: readonly LabProblem[]): boolean {
  return problems.some((p) => !p.skips);
}

/** The problems that stop Run: all but a sweep's skipped points. */
export function blockingProblems(problems: LabProblem[]): LabProblem[] {
  return problems.filter((p) => !p.skips);
}

/** A problem said away from its field (as Run's reason): a knob's names its server. */
export function problemReason(problem: LabProblem, t: TFunction<'bench'>): string {
  return problem.server ? t('lab.problem.ofServer', { server: problem.server, problem: problem.text }) : problem.text;
}

/** The problems said beside one place of the form. */
export function problemsAt(problems: LabProblem[], place: ProblemPlace): LabProblem[] {
  return problems.filter((p) => p.place === place);
}
