/**
 * Refusals as the API sends them (`Problem`, errors.py): a code from its list, that code's
 * params (exactly those the OpenAPI document's `x-phrases` names, as the API's own Phrase
 * insists), and the English `detail` made of them. The interface words a refusal from its code
 * and params (problem-text.ts), so a test that sees the English detail on screen has caught it
 * showing what it should not.
 */
import type { Problem } from '@/lib/api/generated/types.gen';
import { zProblem } from '@/lib/api/generated/zod.gen';
import { fieldOf } from '@/lib/problem-text';

export type ProblemCode = Problem['code'];
export type ProblemParams = NonNullable<Problem['params']>;

// The API's list of codes, each with its params and its English (the backend's Phrase
// templates, in Python's format syntax: `{name!r}` quotes a string as repr() does).
const documents = import.meta.glob<{ components: { schemas: { Problem: { 'x-phrases': Record<string, { params: string[]; english: string }> } } } }>(
  '../../openapi.json',
  { eager: true, import: 'default' },
);
const phrases = Object.values(documents)[0]!.components.schemas.Problem['x-phrases'];

/** Python's repr() of a value a refusal echoes. */
function repr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value}'`;
  return JSON.stringify(value);
}

function english(code: ProblemCode, params: ProblemParams): string {
  return phrases[code]!.english.replace(/\{(\w+)(!r)?(?::[^}]*)?\}/g, (_, name: string, quoted?: string) =>
    quoted ? repr(params[name]) : String(params[name]),
  );
}

/**
 * A refusal's body as the API sends it: `problem('run-not-yours')`,
 * `problem('no-run', { run_id: 'r1' })`. Its params must be exactly the code's (a missing or
 * extra one throws); the detail defaults to the backend's English.
 */
export function problem(code: ProblemCode, params: ProblemParams = {}, detail?: string): Problem {
  const expected = [...(phrases[code]?.params ?? [])].sort();
  const given = Object.keys(params).sort();
  if (JSON.stringify(given) !== JSON.stringify(expected)) {
    throw new Error(`problem('${code}'): the API gives it the params ${expected.join(', ') || '(none)'}, not ${given.join(', ') || '(none)'}`);
  }
  return zProblem.parse({ detail: detail ?? english(code, params), code, params });
}

/** One failed check of a 422, as pydantic lists it. */
export interface Check {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/**
 * A 422 for input that failed validation (`invalid-input`), its checks in `errors` and its
 * English as errors.py's describe_errors makes it: `connections: input should be … (got 50000)`.
 */
export function invalidInput(...checks: Check[]): Problem {
  const problems = checks
    .map((check) => {
      const echoed = check.type !== 'missing' && (typeof check.input !== 'object' || check.input === null || Array.isArray(check.input));
      // `Input should be …` → `input should be …`, leaving `JSON …` alone.
      const message = /^.[A-Z]/.test(check.msg) ? check.msg : check.msg.charAt(0).toLowerCase() + check.msg.slice(1);
      return `${fieldOf(check.loc)}: ${message}${echoed ? ` (got ${repr(check.input)})` : ''}`;
    })
    .join('; ');
  return { ...problem('invalid-input', { problems }), errors: checks.map((check) => ({ ...check })) };
}
