/**
 * A server knob as a learner reads it, in the interface's language: its label, help and unit,
 * and its value in that unit. GET /api/servers names each knob in English (the catalog's words,
 * for any client of the API); the interface says them in its own words, kept with its other
 * strings (`knob.words`, and `knob.serverWords` where one server's knob of that name means
 * something else), and keeps the catalog's for a knob it does not know (one added to the
 * catalog before the interface).
 */
import type { TFunction } from 'i18next';

import type { Knob } from '@/lib/api-schemas';
import { formatBytes, formatInt, plural } from '@/lib/format';

/** The catalog's `label` is newer than some clients' copy of the contract: optional here. */
type LabelledKnob = Knob & { label?: string | null };

/** What a knob is called and said to do; its unit for one and for several ("thread", "threads"). */
export interface KnobWords {
  label: string;
  help: string;
  unit?: string;
  units?: string;
}

type Known = Record<string, Partial<KnobWords> | undefined>;

function singular(unit: string): string {
  return unit.endsWith('ies') ? `${unit.slice(0, -3)}y` : unit.slice(0, -1);
}

/** The catalog's own words: a counted thing ("threads") has its one form derived, a unit of
 *  measure ("KiB", "ms") is the same for one; a knob without a label has its name in words. */
function catalogWords(name: string, knob: LabelledKnob | undefined): KnobWords {
  const units = knob?.unit ?? undefined;
  const unit = units && /^[a-z]{3,}s$/.test(units) ? singular(units) : units;
  return { label: knob?.label ?? name.replaceAll('_', ' '), help: knob?.help ?? '', ...(units ? { unit, units } : {}) };
}

/** The interface's words for the knob `name` (of `server`, when known), over the catalog's. */
export function knobWords(name: string, knob: LabelledKnob | undefined, t: TFunction<'bench'>, server?: string): KnobWords {
  const known: Known = t('knob.words', { returnObjects: true });
  const byServer: Record<string, Known | undefined> = t('knob.serverWords', { returnObjects: true });
  const own = server ? byServer[server]?.[name] : undefined;
  return { ...catalogWords(name, knob), ...known[name], ...own };
}

/** The knob's label ("read buffer"). */
export function knobLabel(name: string, knob: LabelledKnob | undefined, t: TFunction<'bench'>, server?: string): string {
  return knobWords(name, knob, t, server).label;
}

/**
 * "8,192 KiB", "16 KiB" (a size in bytes), "1 thread", "4 threads" ("4 个线程"), "on"/"off" for
 * a switch, an option as it is named.
 */
export function knobValue(value: unknown, knob: LabelledKnob | undefined, t: TFunction<'bench'>, server?: string): string {
  if (typeof value === 'boolean') return value ? t('knob.on') : t('knob.off');
  if (typeof value !== 'number') return String(value);
  if (!knob?.unit) return formatInt(value);
  if (knob.unit === 'bytes') return formatBytes(value);
  const { unit, units } = knobWords(knob.name, knob, t, server);
  return units ? `${formatInt(value)} ${plural(value, unit ?? units, units)}` : formatInt(value);
}
