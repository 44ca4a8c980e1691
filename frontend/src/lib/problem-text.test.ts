import { en } from '@/locales/en';

import { formatDateTime } from './dates';
import { i18next } from './i18n';
import { problemText } from './problem-text';

// The API's list of codes, each with its params (the OpenAPI document's `x-phrases`).
const documents = import.meta.glob<{ components: { schemas: { Problem: { 'x-phrases': Record<string, { params: string[] }> } } } }>(
  '../../openapi.json',
  { eager: true, import: 'default' },
);
const phrases = Object.values(documents)[0]!.components.schemas.Problem['x-phrases'];

const { validation, ...codes } = en.errors;

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]!);
}

describe('the API’s refusals in the interface', () => {
  it('words every code the API may send, and only those', () => {
    expect(Object.keys(codes).sort()).toEqual(Object.keys(phrases).sort());
    expect(Object.keys(phrases)).not.toContain('validation');
  });

  it('puts in only the params each code comes with', () => {
    for (const [code, text] of Object.entries(codes)) {
      for (const name of placeholders(text)) expect(phrases[code]?.params, `${code}: {{${name}}}`).toContain(name);
    }
  });

  it('words a code with its params in the reader’s language, times in their locale', async () => {
    const until = '2026-12-14T09:30:00.000+00:00';
    const problem = {
      code: 'class-ended-read-only' as const,
      detail: 'the class has ended: read-only until 2026-12-14 09:30 UTC',
      params: { until },
    };
    expect(problemText(problem)).toContain(formatDateTime(new Date(until), 'en'));
    await i18next.changeLanguage('zh');
    const zh = problemText(problem);
    expect(zh).toContain('你的班级已结束');
    expect(zh).toContain(formatDateTime(new Date(until), 'zh'));
    expect(zh).not.toContain('UTC');
  });

  it('words a 422 check by check, keeping the API’s English for a check it cannot word', async () => {
    const problem = {
      code: 'invalid-input' as const,
      detail: 'connections: input should be less than or equal to 19000 (got 50000); name: weird',
      params: { problems: 'connections: input should be less than or equal to 19000 (got 50000); name: weird' },
      errors: [
        { type: 'less_than_equal', loc: ['body', 'connections'], msg: 'Input should be less than or equal to 19000', input: 50000, ctx: { le: 19000 } },
        { type: 'value_error', loc: ['body', 'name'], msg: 'weird', input: 'x' },
      ],
    };
    expect(problemText(problem)).toBe('connections: must be at most 19000 (got 50000); name: weird');
    await i18next.changeLanguage('zh');
    expect(problemText(problem)).toBe('connections：至多为 19000（收到的是 50000）; name: weird');
  });

  it('keeps the English of a code this build does not know', () => {
    const newer = { code: 'from-a-newer-api', detail: 'something new went wrong', params: {} };
    expect(problemText(newer as never)).toBe('something new went wrong');
  });
});
