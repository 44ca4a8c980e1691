import { doneEventSchema, sweepPointSchema, type SweepPoint } from '@/lib/api-schemas';
import { toCsv } from '@/lib/export';
import { i18next } from '@/lib/i18n';
import { doneData } from '@/testing/fixtures';

import type { SweepRequest } from './experiment-block';
import { runTable, seriesTables } from './export-tables';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const result = doneEventSchema.parse(doneData);

function point(server: string, value: number, figures: Partial<SweepPoint>): SweepPoint {
  return sweepPointSchema.parse({ server, value, run_id: `${server}-${value}`, status: 'done', reason: null, valid: true, ...figures });
}

describe('runTable', () => {
  it('is field,<server id> with the figures in base units, leaving out fields the run has not', () => {
    const table = runTable([{ name: 'c-epoll', result }]);
    expect(table.columns).toEqual(['field', 'c-epoll']);
    const fields: Record<string, unknown> = Object.fromEntries(table.rows.map((row) => [String(row[0]), row[1]]));
    expect(fields).toMatchObject({
      qps: 51234.5,
      latency_p99_us: 900,
      errors: 0,
      server_cpu_percent_mean: 87.5,
      server_memory_peak_bytes: 5 * 1024 * 1024,
      valid: true,
      stable: true,
    });
    expect(fields).not.toHaveProperty('open_loop_target_qps'); // a closed-loop run
    expect(fields).not.toHaveProperty('invalid_reason');
  });

  it('puts runs side by side, one column each', () => {
    const slower = doneEventSchema.parse({ ...doneData, summary: { ...doneData.summary, qps: 40000 }, valid: false, invalid_reason: 'errors, 3' });
    const csv = toCsv(runTable([{ name: 'c-epoll', result }, { name: 'c-poll', result: slower }]));
    expect(csv.split('\r\n').slice(0, 2)).toEqual(['field,c-epoll,c-poll', 'qps,51234.5,40000']);
    expect(csv).toContain('\r\ninvalid_reason,,"errors, 3"\r\n');
  });
});

describe('seriesTables', () => {
  const sweep: SweepRequest = { servers: ['c-epoll', 'c-poll'], vary: 'connections', values: [100, 1000], base: {} };
  const points = [
    point('c-epoll', 100, { qps: 50000.04, p99_us: 310.26 }),
    point('c-poll', 100, { qps: 45000, p99_us: 400 }),
    point('c-epoll', 1000, { qps: 49000, p99_us: 900 }),
    point('c-poll', 1000, { qps: 12000, p99_us: 9000, valid: false, reason: 'errors' }),
  ];

  it('gives one table per figure: the varied value, then a column per server id', () => {
    const tables = seriesTables(sweep, points, t);
    expect(tables.map((t) => t.what)).toEqual(['qps', 'p99_us', 'points']); // no point has the rest
    expect(toCsv(tables[0]!.table)).toBe('connections,c-epoll,c-poll\r\n100,50000,45000\r\n1000,49000,\r\n');
    expect(tables[1]?.table.rows[0]).toEqual([100, 310.3, 400]);
  });

  it('ends with every point as a row, invalid ones too, with its note', () => {
    const every = seriesTables(sweep, points, t).at(-1)!;
    expect(every.table.columns.slice(0, 4)).toEqual(['server', 'connections', 'status', 'qps']);
    const invalid = every.table.rows.at(-1)!;
    expect(invalid.slice(0, 4)).toEqual(['c-poll', 1000, 'done', 12000]);
    expect(invalid.at(-1)).toBe('invalid: errors');
  });
});
