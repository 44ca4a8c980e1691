import { instructorMe, nobodyMe, soloMe, studentMe } from '@/testing/people-fixtures';

import { meSchema } from './people-schemas';
import { JOIN_TO_RUN, runGateFor } from './run-gate';

describe('runGateFor', () => {
  it('asks nobody in solo mode, and anyone in a class who has joined or logged in', () => {
    expect(runGateFor(meSchema.parse(soloMe))).toBeNull();
    expect(runGateFor(meSchema.parse(studentMe))).toBeNull();
    expect(runGateFor(meSchema.parse(instructorMe))).toBeNull();
  });

  it('sends someone in a class who has not joined to the join page', () => {
    expect(runGateFor(meSchema.parse(nobodyMe))).toEqual(JOIN_TO_RUN);
    expect(JOIN_TO_RUN).toEqual({ label: 'Join your class to run benchmarks', to: '/join' });
  });

  it('lets the server decide while it is not known who this is', () => {
    expect(runGateFor(undefined)).toBeNull();
  });
});

describe('meSchema', () => {
  it('takes an answer without `class` (an instructor) and refuses an unknown kind', () => {
    expect(meSchema.parse({ mode: 'classroom', person: instructorMe.person }).class ?? null).toBeNull();
    expect(meSchema.safeParse({ mode: 'classroom', person: { id: 'x', kind: 'admin', name: 'x' } }).success).toBe(false);
  });
});
