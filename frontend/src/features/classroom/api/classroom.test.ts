import { aClassroomClass, anAssignment, aPresentation, gradebook } from '@/testing/classroom-fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { problem } from '@/testing/problem';

import {
  assign,
  classEventsUrl,
  csvUrl,
  getClass,
  getGradebook,
  gradebookCsvUrl,
  present,
  removeStudent,
  stopPresenting,
  unassign,
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
    mockFetch({ 'DELETE /api/classes/c-1/presentation': reply(404, problem('not-your-class', { class_id: 'c-1' })) });
    await expect(stopPresenting('c-1')).rejects.toMatchObject({ status: 404, message: 'You do not teach this class.' });
  });

  it('says where the stream and the CSVs are', () => {
    expect(classEventsUrl('c 1')).toBe('/api/classes/c%201/events');
    expect(csvUrl('c-1')).toBe('/api/classes/c-1/runs.csv');
    expect(gradebookCsvUrl('c-1')).toBe('/api/classes/c-1/gradebook.csv');
  });

  it('assigns with PUT and its due time, takes off with DELETE, reads the gradebook', async () => {
    const due = '2026-11-25T15:30:00+01:00';
    const { calls } = mockFetch({
      'PUT /api/classes/c-1/assignments/et-drain': anAssignment({ due_at: '2026-11-25T14:30:00.000+00:00' }),
      'DELETE /api/classes/c-1/assignments/et-drain': reply(204, null),
      'GET /api/classes/c-1/gradebook': gradebook,
    });
    await expect(assign('c-1', 'et-drain', { due_at: due })).resolves.toMatchObject({ exercise: 'et-drain', mine: null });
    await expect(unassign('c-1', 'et-drain')).resolves.toBeUndefined();
    await expect(getGradebook('c-1')).resolves.toMatchObject({ students: [{ name: 'Ada', passed: 1 }, { name: 'Linus', passed: 0 }] });
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['PUT', '/api/classes/c-1/assignments/et-drain', { due_at: due }],
      ['DELETE', '/api/classes/c-1/assignments/et-drain', undefined],
      ['GET', '/api/classes/c-1/gradebook', undefined],
    ]);
  });


  it('refuses a class in the wrong shape', async () => {
    mockFetch({ 'GET /api/classes/c-1': { ...aClassroomClass(), paused: 'no' } });
    await expect(getClass('c-1')).rejects.toThrow(/unexpected shape/);
  });
});
