import { i18next } from '@/lib/i18n';
import { instructorMe, nobodyMe, soloMe, studentMe } from '@/testing/people-fixtures';

import { meSchema } from './people-schemas';
import { runGateFor } from './run-gate';

const t = () => i18next.getFixedT(null, 'people');

describe('runGateFor', () => {
  it('asks nobody in solo mode, and anyone in a class who has joined or logged in', () => {
    expect(runGateFor(meSchema.parse(soloMe), t())).toBeNull();
    expect(runGateFor(meSchema.parse(studentMe), t())).toBeNull();
    expect(runGateFor(meSchema.parse(instructorMe), t())).toBeNull();
  });

  it('sends someone in a class who has not joined to the join page', () => {
    expect(runGateFor(meSchema.parse(nobodyMe), t())).toEqual({ label: 'Join your class to run benchmarks', to: '/join' });
  });

  it('says so in the interface’s language', async () => {
    await i18next.changeLanguage('zh');
    expect(runGateFor(meSchema.parse(nobodyMe), t())?.label).toBe('加入班级后即可运行基准测试');
  });

  it('lets the server decide while it is not known who this is', () => {
    expect(runGateFor(undefined, t())).toBeNull();
  });
});

describe('meSchema', () => {
  it('takes an answer without `class` (an instructor) and refuses an unknown kind', () => {
    expect(meSchema.parse({ mode: 'classroom', person: instructorMe.person }).class ?? null).toBeNull();
    expect(meSchema.safeParse({ mode: 'classroom', person: { id: 'x', kind: 'admin', name: 'x' } }).success).toBe(false);
  });
});
