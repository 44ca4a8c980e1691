import { experimentKey, parseExperimentBlock } from './experiment-block';

const valid = `
server: c-epoll
connections: 100
payload_bytes: 64
duration_s: 5
warmup_s: 1
protocol: echo
`;

describe('parseExperimentBlock', () => {
  it('parses the contract example into the POST /api/runs body', () => {
    const result = parseExperimentBlock(valid);
    expect(result).toMatchObject({
      ok: true,
      request: { server: 'c-epoll', connections: 100, payload_bytes: 64, duration_s: 5, warmup_s: 1, protocol: 'echo' },
    });
  });

  it('keeps the title out of the request and accepts knobs', () => {
    const result = parseExperimentBlock(`title: Edge-triggered\nserver: c-epoll\nknobs:\n  trigger: et\n  buffer_bytes: 4096\n`);
    expect(result.ok).toBe(true);
    if (!result.ok || result.kind !== 'run') return;
    expect(result.experiment.title).toBe('Edge-triggered');
    expect(result.request).toEqual({ server: 'c-epoll', knobs: { trigger: 'et', buffer_bytes: 4096 } });
  });

  it('only needs the server', () => {
    expect(parseExperimentBlock('server: c-poll').ok).toBe(true);
  });

  it.each([
    ['', /empty/],
    ['server: [c-epoll', /not valid YAML/],
    ['server: c-epoll\nserver: c-poll', /not valid YAML/],
    ['- server: c-epoll', /mapping/],
    ['connections: 10', /server is required/],
    ['server: c-epoll\nconections: 10', /unknown key "conections"/],
    ['server: c-epoll\nconnections: -5', /connections/],
    ['server: c-epoll\nconnections: 2.5', /connections/],
    ['server: c-epoll\nprotocol: gopher', /protocol/],
    ['server: C EPOLL', /catalog id/],
    ['server: c-epoll\nknobs: [1, 2]', /knobs/],
  ])('rejects %j with a clear message', (source, message) => {
    const result = parseExperimentBlock(source);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it('gives the same key whatever the key order', () => {
    const a = parseExperimentBlock('server: c-epoll\nconnections: 10');
    const b = parseExperimentBlock('connections: 10\nserver: c-epoll');
    expect(a.ok && b.ok && a.key === b.key).toBe(true);
    expect(experimentKey({ server: 'x' })).toBe('{"server":"x"}');
  });
});
