import { i18next } from '@/lib/i18n';
import { healthyHealth, servers } from '@/testing/fixtures';

import { runBlockedReason } from './readiness';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const base = { health: healthyHealth, healthError: null, servers, serverId: 'c-epoll' };

describe('runBlockedReason', () => {
  it('allows a run when Docker and the images are there', () => {
    expect(runBlockedReason(base, t)).toBeNull();
  });

  it('explains why a run cannot start', () => {
    expect(runBlockedReason({ ...base, health: undefined }, t)).toMatch(/Checking/);
    expect(runBlockedReason({ ...base, health: undefined, healthError: new Error('502') }, t)).toMatch(/health check failed: 502/);
    expect(
      runBlockedReason({ ...base, health: { ...healthyHealth, docker: { reachable: false, version: null, error: 'permission denied' }, ready: false } }, t),
    ).toBe('Docker is unreachable: permission denied. Benchmarks cannot run.');
    expect(
      runBlockedReason({ ...base, health: { ...healthyHealth, images: { 'c10klab/server:c-epoll': false, 'c10klab/loadgen:latest': true }, ready: false } }, t),
    ).toBe('The image c10klab/server:c-epoll is not built yet.');
    expect(
      runBlockedReason({ ...base, health: { ...healthyHealth, images: { 'c10klab/server:c-epoll': true, 'c10klab/loadgen:latest': false }, ready: false } }, t),
    ).toBe('Missing image: c10klab/loadgen:latest.');
    expect(runBlockedReason({ ...base, serverId: 'c-nope' }, t)).toMatch(/Unknown server "c-nope"/);
  });

  it('does not block on an image that another server needs', () => {
    const health = { ...healthyHealth, images: { ...healthyHealth.images, 'c10klab/server:c-io-uring': false }, ready: false };
    const catalog = [...servers, { ...servers[0]!, id: 'c-io-uring', image: 'c10klab/server:c-io-uring' }];
    expect(runBlockedReason({ ...base, health, servers: catalog }, t)).toBeNull();
  });

  it('falls back to the ready flag without a catalog', () => {
    expect(runBlockedReason({ ...base, servers: undefined, health: { ...healthyHealth, images: {}, ready: false } }, t)).toMatch(/not ready/);
  });
});
