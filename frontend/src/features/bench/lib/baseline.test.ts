import { describe, expect, it } from 'vitest';

import { baselineSchema } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aProvenance, doneData, progress } from '@/testing/fixtures';

import { describeBaseline, replayRun } from './baseline';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const recorded = baselineSchema.parse({
  block: 'server: c-epoll',
  kind: 'run',
  key: null,
  recorded_at: '2026-11-22T08:00:00+00:00',
  provenance: aProvenance({ cpu_model: 'AMD EPYC', kernel: '6.18.44', server_cpus: '0', loadgen_cpus: '1' }),
  result: {
    events: [
      { type: 'progress', data: progress(1, 'warmup') },
      { type: 'repetition', data: { repetition: 1, of: 1, t_s: 1 } }, // not drawn: the progress events say which
      { type: 'progress', data: progress(2, 'measure') },
      { type: 'server_stats', data: { t_s: 2, cpu_percent: 95, memory_bytes: 1000, pids: 1 } },
      { type: 'done', data: doneData },
    ],
  },
});

describe('baselines', () => {
  it('replays a recorded run through the live state machine', () => {
    const state = replayRun(recorded);
    expect(state.phase).toBe('done');
    expect(state.progress.map((p) => p.phase)).toEqual(['warmup', 'measure']);
    expect(state.stats).toHaveLength(1);
    expect(state.result?.summary.qps).toBe(51234.5);
  });

  it('says when and where a baseline was recorded', () => {
    expect(describeBaseline(recorded, t)).toBe(
      'recorded 2026-11-22, on AMD EPYC, Linux 6.18.44, server CPU 0 / load generator CPU 1',
    );
  });
});
