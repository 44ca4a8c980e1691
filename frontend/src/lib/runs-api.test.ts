import { mockFetch } from '@/testing/mock-fetch';

import { cancelRun, runEventsUrl } from './runs-api';

describe('the runs api', () => {
  it('cancels a run with DELETE', async () => {
    const { calls } = mockFetch({ 'DELETE /api/runs/r-1': { id: 'r-1', status: 'cancelled' } });
    await expect(cancelRun('r-1')).resolves.toEqual({ id: 'r-1', status: 'cancelled' });
    expect(calls.map((c) => [c.method, c.path])).toEqual([['DELETE', '/api/runs/r-1']]);
  });

  it('opens a run’s stream from its first event, or after the last one applied', () => {
    expect(runEventsUrl('r 1')).toBe('/api/runs/r%201/events');
    expect(runEventsUrl('r-1', 0)).toBe('/api/runs/r-1/events');
    expect(runEventsUrl('r-1', 7)).toBe('/api/runs/r-1/events?last_event_id=7');
  });
});
