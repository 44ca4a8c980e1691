/**
 * The lab's fields in the reader's language. GET /api/lab/fields names each field in English
 * (a label, its units, a sentence of help) for any client of the API; the form says them in
 * the interface's words, kept with its other strings, and keeps the API's for a field it does
 * not know (one added to the API before the interface).
 */
import type { TFunction } from 'i18next';

import type { LabFields, RunField } from '@/lib/api-schemas';

type Words = Pick<RunField, 'label' | 'help' | 'unit' | 'units'>;

export function wordLabFields(fields: LabFields, t: TFunction<'bench'>): LabFields {
  const known: Record<string, Partial<Words> | undefined> = t('lab.fieldWords', { returnObjects: true });
  return { ...fields, fields: fields.fields.map((field) => ({ ...field, ...known[field.name] })) };
}
