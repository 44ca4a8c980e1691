/**
 * A refusal of the API (a `Problem`) in the interface's language. The API sends each refusal
 * as a code and its params beside its English `detail`; the wording of every code is in the
 * `errors` strings (locales/en|zh/errors.json, held to the API's list of codes by
 * problem-text.test.ts). A time among the params is written in the reader's locale and zone;
 * a 422's failed checks are worded one by one from pydantic's own codes. What this build
 * cannot word (a check pydantic names in a way not listed here) keeps the API's English.
 */
import type { TOptions } from 'i18next';

import type { Problem } from './api/generated/types.gen';
import { formatDateTime } from './dates';
import { i18next } from './i18n';

type Params = NonNullable<Problem['params']>;
type Check = Record<string, unknown>;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The part of a request a pydantic location names, as the API's English does: the field's
 *  path without the request part it sits in (`base.duration_s`, `values.2`). */
export function fieldOf(loc: unknown): string {
  const steps = Array.isArray(loc) ? loc.map(String) : [];
  const field = steps.filter((s) => !['body', 'query', 'path', 'header'].includes(s)).join('.');
  return field || (steps[0] === 'body' ? 'body' : 'request');
}

function shown(value: unknown): string {
  // JSON.stringify gives undefined for undefined (a check with no input).
  const text = typeof value === 'string' ? value : (JSON.stringify(value) as string | undefined);
  return text ?? '';
}

function t(key: string, options: TOptions): string | null {
  // The key is made from a code the API sent: one this build lacks gives null, not the key.
  const said: string = i18next.t(key, { ns: 'errors', ...options, defaultValue: '' });
  return said === '' ? null : said;
}

/** One failed check of a 422 (pydantic's `{type, loc, msg, input, ctx}`). */
export function checkText(check: Check): string {
  const field = fieldOf(check.loc);
  const ctx = (check.ctx ?? {}) as Record<string, unknown>;
  const context = Object.fromEntries(Object.entries(ctx).map(([k, v]) => [k, shown(v)]));
  const worded = t(`validation.${String(check.type)}`, { field, ...context, got: shown(check.input) });
  return worded ?? `${field}: ${shown(check.msg)}`;
}

function localParams(params: Params, lng: string | undefined): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' && ISO_TIME.test(v) ? formatDateTime(new Date(v), lng) : v]),
  );
}

/** What a refusal says, in the interface's language now. */
export function problemText(problem: Problem): string {
  if (problem.code === 'invalid-input' && problem.errors?.length) {
    return problem.errors.map(checkText).join('; ');
  }
  const params = localParams(problem.params ?? {}, i18next.resolvedLanguage);
  return t(problem.code, params) ?? problem.detail;
}
