import { aClassroomClass } from '@/testing/classroom-fixtures';
import { mockFetch } from '@/testing/mock-fetch';

import { endClass } from './classes-api';

describe('the classes api', () => {
  it('ends a class with POST and reads the class it answers', async () => {
    const { calls } = mockFetch({ 'POST /api/classes/c%201/end': aClassroomClass({ ended_at: '2026-11-24T11:00:00+00:00' }) });
    await expect(endClass('c 1')).resolves.toMatchObject({ ended_at: '2026-11-24T11:00:00+00:00' });
    expect(calls.map((c) => [c.method, c.path])).toEqual([['POST', '/api/classes/c%201/end']]);
  });
});
