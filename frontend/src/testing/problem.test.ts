import { invalidInput, problem } from './problem';

describe('problem (a test’s refusal)', () => {
  it('is the API’s body: the code, its params and the backend’s English', () => {
    expect(problem('no-run', { run_id: 'r1' })).toEqual({ code: 'no-run', params: { run_id: 'r1' }, detail: "no run 'r1'", errors: null });
    expect(problem('wrong-login').detail).toBe('wrong name or password');
    expect(problem('run-not-yours', {}, 'said otherwise').detail).toBe('said otherwise');
  });

  it('takes exactly the params the API gives the code', () => {
    expect(() => problem('no-run')).toThrow("problem('no-run'): the API gives it the params run_id, not (none)");
    expect(() => problem('wrong-login', { name: 'Grace' })).toThrow(/not name/);
  });

  it('words a 422’s checks as the backend does, and keeps them in `errors`', () => {
    const check = { type: 'less_than_equal', loc: ['body', 'connections'], msg: 'Input should be less than or equal to 19000', input: 50000, ctx: { le: 19000 } };
    const missing = { type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: { connections: 50000 } };
    expect(invalidInput(check, missing)).toEqual({
      code: 'invalid-input',
      detail: 'connections: input should be less than or equal to 19000 (got 50000); name: field required',
      params: { problems: 'connections: input should be less than or equal to 19000 (got 50000); name: field required' },
      errors: [check, missing],
    });
  });
});
