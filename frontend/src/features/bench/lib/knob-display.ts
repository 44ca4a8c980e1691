/** A server knob as a learner reads it: its catalog label, and its value in its unit. */
import type { TFunction } from 'i18next';

import type { Knob } from '@/lib/api-schemas';
import { formatBytes, formatCount, formatInt } from '@/lib/format';

/** The catalog's `label` is newer than some clients' copy of the contract: optional here. */
type LabelledKnob = Knob & { label?: string | null };

/** The knob's label; a knob the catalog gives none (an older catalog) has its name in words. */
export function knobLabel(name: string, knob: LabelledKnob | undefined): string {
  return knob?.label ?? name.replaceAll('_', ' ');
}

function singular(unit: string): string {
  return unit.endsWith('ies') ? `${unit.slice(0, -3)}y` : unit.slice(0, -1);
}

/**
 * "8,192 KiB", "16 KiB" (a size in bytes), "1 thread", "4 threads", "on"/"off" for a switch,
 * an option as it is named. A knob's unit is the catalog's word, shown as it came.
 */
export function knobValue(value: unknown, knob: LabelledKnob | undefined, t: TFunction<'bench'>): string {
  if (typeof value === 'boolean') return value ? t('knob.on') : t('knob.off');
  if (typeof value !== 'number') return String(value);
  const unit = knob?.unit;
  if (!unit) return formatInt(value);
  if (unit === 'bytes') return formatBytes(value);
  // A counted thing ("threads", "connections") agrees with the count; units of measure do not.
  if (/^[a-z]+s$/.test(unit)) return formatCount(value, singular(unit), unit);
  return `${formatInt(value)} ${unit}`;
}
