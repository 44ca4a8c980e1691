import { beforeAll, describe, expect, it } from 'vitest';

import { toCsv } from '@/lib/export';
import { i18next } from '@/lib/i18n';
import { aProvenance, doneData, servers } from '@/testing/fixtures';

import { comparisonAbout, resultAbout } from './result-about';

beforeAll(async () => {
  // The bench's strings load with the feature, Chinese ones when asked for.
  await i18next.loadLanguages('zh');
  await i18next.loadNamespaces('bench');
});

const en = i18next.getFixedT('en', 'bench');
const zh = i18next.getFixedT('zh', 'bench');

const request = { server: 'c-epoll', connections: 100, payload_bytes: 64, duration_s: 5, warmup_s: 1, knobs: { trigger: 'et' } };
const provenance = aProvenance({ cpu_model: 'AMD EPYC 7B13', cpus: 2, runner: 'runner-1', runner_host: 'lab-host', cgroup_version: '2' });
const facts = {
  title: 'epoll, level-triggered run',
  request,
  servers: servers.slice(0, 1),
  provenance,
  createdAt: '2026-11-25T10:00:30Z',
  path: '/runs/3f2a',
  legend: ['c-epoll'],
};

describe('a run’s about', () => {
  it('says its setup, legend, host and date, and links its permalink', () => {
    const about = resultAbout(facts, en, 'en');
    const lines = Object.fromEntries(about.lines.map((l) => [l.label, l.value]));
    expect(about.title).toBe('epoll, level-triggered run');
    expect(about.link).toBe(`${window.location.origin}${window.location.pathname}#/runs/3f2a`);
    expect(lines).toMatchObject({
      Server: 'epoll, level-triggered (c-epoll)',
      Connections: '100',
      Payload: '64 B',
      Duration: '5 s',
      'Readiness trigger': 'et',
      Legend: 'c-epoll',
      Host: 'runner-1 on lab-host',
      CPU: 'AMD EPYC 7B13, 2 CPUs',
      Kernel: 'Linux 6.1.0, cgroup v2',
    });
    // The runner's start, in the reader's words and as ISO: when it was measured, not queued.
    expect(lines.Measured).toMatch(/2026.*\(2026-11-25T10:01:00\+00:00\)$/);
    expect(about.data).toMatchObject({ setup: request, legend: ['c-epoll'], host: { cpu_model: 'AMD EPYC 7B13', kernel: '6.1.0' }, date: '2026-11-25T10:01:00+00:00' });
  });

  it('gives a run\'s headline figures with how far a second run could land, or says that is not known', () => {
    const noise = { sigma: 0.02, runs: 12, groups: 1, freedom: 11, quantile: 2.2, measured_at: '2026-11-25T09:00:00Z' };
    const withNoise = resultAbout({ ...facts, result: { ...doneData, host_noise: noise } }, en, 'en');
    const throughput = withNoise.lines.find((l) => l.label === 'Throughput')?.value;
    expect(throughput).toMatch(/^51,23\d req\/s \(a second run could land ±\d+(\.\d)? % away by this host's run-to-run spread\)$/);
    expect(withNoise.lines.find((l) => l.label === 'Latency')?.value).toContain('p99 900 µs');
    const unknown = resultAbout({ ...facts, result: { ...doneData, host_noise: null, aggregate: null } }, en, 'en');
    expect(unknown.lines.find((l) => l.label === 'Throughput')?.value).toContain('its uncertainty was not measured');
  });

  it('falls back to when it was queued, and has no link for a recorded reference', () => {
    const about = resultAbout({ ...facts, provenance: null, path: null }, en, 'en');
    expect(about.link).toBeNull();
    expect(about.lines.find((l) => l.label === 'Queued')?.value).toMatch(/\(2026-11-25T10:00:30Z\)$/);
    expect(about.lines.some((l) => l.label === 'CPU')).toBe(false);
  });

  it('is said in Chinese for a Chinese reader', () => {
    const labels = resultAbout(facts, zh, 'zh').lines.map((l) => l.label);
    expect(labels).toEqual(expect.arrayContaining(['图例', '主机', '内核', '测量时间']));
  });

  it('heads a CSV export with every one of those facts', () => {
    const csv = toCsv({ columns: ['field', 'c-epoll'], rows: [['qps', 50000]] }, resultAbout(facts, en, 'en'));
    for (const part of ['# epoll, level-triggered run', '# Connections: 100', '# CPU: AMD EPYC 7B13, 2 CPUs', '# Kernel: Linux 6.1.0, cgroup v2', '# Legend: c-epoll', '2026-11-25T10:01:00+00:00', '#/runs/3f2a']) {
      expect(csv).toContain(part);
    }
  });
});

describe('a comparison’s about', () => {
  it('gives each result’s setup a line, the reference’s host, and the span of dates', () => {
    const about = comparisonAbout(
      {
        results: [
          { label: 'c-epoll · 25 Nov, 10:00', request, createdAt: '2026-11-25T10:00:30Z' },
          { label: 'c-poll · 25 Nov, 11:00', request: { ...request, server: 'c-poll', knobs: {} }, createdAt: '2026-11-25T11:00:00Z' },
        ],
        servers,
        provenance,
        path: '/compare?results=run:a,run:b',
        legend: ['c-epoll · 25 Nov, 10:00', 'c-poll · 25 Nov, 11:00'],
      },
      en,
      'en',
    );
    expect(about.title).toBe('Comparison of 2 results');
    expect(about.link).toMatch(/#\/compare\?results=run:a,run:b$/);
    const lines = Object.fromEntries(about.lines.map((l) => [l.label, l.value]));
    expect(lines['Setup of c-poll · 25 Nov, 11:00']).toContain('poll() event loop (c-poll)');
    expect(lines['Setup of c-epoll · 25 Nov, 10:00']).toContain('connections 100');
    expect(lines['CPU (of the reference)']).toBe('AMD EPYC 7B13, 2 CPUs');
    expect(lines.Queued).toContain('2026-11-25T10:00:30Z – 2026-11-25T11:00:00Z');
  });
});
