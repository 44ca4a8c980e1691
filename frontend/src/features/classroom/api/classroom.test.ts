import { aClassroomClass, aPresentation } from '@/testing/classroom-fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';

import {
  classEventsUrl,
  csvUrl,
  getClass,
  present,
  removeStudent,
  stopPresenting,
} from './classroom';

describe('the classroom api', () => {
  it('presents with PUT and its body, and stops and removes with answers of no body', async () => {
    const { calls } = mockFetch({
      'PUT /api/classes/c-1/presentation': aPresentation(),
      'DELETE /api/classes/c-1/presentation': reply(204, null),
      'DELETE /api/classes/c-1/students/p-ada': reply(204, null),
    });
    await expect(present('c-1', { lesson: '01-c10k-problem', run_id: 'r-9' })).resolves.toMatchObject({ run_id: 'r-9' });
    await expect(stopPresenting('c-1')).resolves.toBeUndefined();
    await expect(removeStudent('c-1', 'p-ada')).resolves.toBeUndefined();
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['PUT', '/api/classes/c-1/presentation', { lesson: '01-c10k-problem', run_id: 'r-9' }],
      ['DELETE', '/api/classes/c-1/presentation', undefined],
      ['DELETE', '/api/classes/c-1/students/p-ada', undefined],
    ]);
  });

  it('shows the server’s sentence when a call is refused', async () => {
    mockFetch({ 'DELETE /api/classes/c-1/presentation': reply(404, { detail: 'Class not found' }) });
    await expect(stopPresenting('c-1')).rejects.toThrow('Class not found');
  });

  it('says where the stream and the CSV are', () => {
    expect(classEventsUrl('c 1')).toBe('/api/classes/c%201/events');
    expect(csvUrl('c-1')).toBe('/api/classes/c-1/runs.csv');
  });


  it('refuses a class in the wrong shape', async () => {
    mockFetch({ 'GET /api/classes/c-1': { ...aClassroomClass(), paused: 'no' } });
    await expect(getClass('c-1')).rejects.toThrow(/unexpected shape/);
  });
});
