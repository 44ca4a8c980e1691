import { doneEventSchema, sweepPointSchema, type SweepPoint } from '@/lib/api-schemas';
import { toCsv } from '@/lib/export';
import { i18next } from '@/lib/i18n';
import { runInterval } from '@/lib/verdict';
import { doneData, noise31 } from '@/testing/fixtures';

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

describe('the interval of each figure', () => {
  it('gives a run’s QPS its 95 % interval from the host’s run-to-run spread', () => {
    const measured = doneEventSchema.parse({ ...doneData, host_noise: noise31 });
    const fields = Object.fromEntries(runTable([{ name: 'c-epoll', result: measured }]).rows.map((row) => [String(row[0]), row[1]]));
    const [low, high] = runInterval(51234.5, noise31);
    expect(fields.qps_low_95).toBe(Math.round(low * 10) / 10);
    expect(fields.qps_high_95).toBe(Math.round(high * 10) / 10);
    // Without the host's spread there is no interval to give, and no empty column for it.
    expect(Object.fromEntries(runTable([{ name: 'c-epoll', result }]).rows.map((row) => [String(row[0]), row[1]]))).not.toHaveProperty('qps_low_95');
  });

  it('puts each server’s interval beside its figure in a series, and in every point’s row', () => {
    const sweep: SweepRequest = { servers: ['c-epoll', 'c-poll'], vary: 'connections', values: [100], base: {} };
    const points = [
      point('c-epoll', 100, { qps: 50000, qps_interval: { low: 48000, high: 52000, level: 0.95, estimate: 50000, count: 1, method: 'host_noise' }, p99_us: 300 }),
      point('c-poll', 100, { qps: 45000, p99_us: 400 }),
    ];
    const [qps, , every] = seriesTables(sweep, points, t);
    expect(toCsv(qps!.table)).toBe(
      'connections,c-epoll,c-epoll_low_95,c-epoll_high_95,c-poll,c-poll_low_95,c-poll_high_95\r\n100,50000,48000,52000,45000,,\r\n',
    );
    const columns = every!.table.columns;
    expect(every!.table.rows[0]?.[columns.indexOf('qps_low_95')]).toBe(48000);
    expect(every!.table.rows[0]?.[columns.indexOf('qps_high_95')]).toBe(52000);
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
