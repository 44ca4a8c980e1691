import { toCsv } from '@/lib/export';
import { i18next } from '@/lib/i18n';
import { runExperiment, seriesExperiment } from '@/testing/classroom-fixtures';

import { boardExportStem, boardTables } from './board-export';
import { boardExperimentSchema } from './classroom-schemas';

const t = i18next.getFixedT(null, 'classroom');

describe('boardTables', () => {
  it('exports a run experiment as one row per student under the reference', () => {
    const experiment = boardExperimentSchema.parse(runExperiment);
    const [results, ...rest] = boardTables(experiment, t);
    expect(rest).toEqual([]);
    expect(results?.what).toBe('results');
    expect(results?.label).toBe('Every student’s result');
    expect(toCsv(results!.table).split('\r\n').slice(0, 4)).toEqual([
      'student,server,qps,p50_us,p99_us,valid,stable,finished_at,qps_change,qps_change_low,qps_change_high,qps_call',
      'reference,c-epoll,60000,120,800,true,true,2026-11-24T09:35:00+00:00,,,,',
      'Ada,c-epoll,50000,120,900,true,true,2026-11-24T09:35:00+00:00,-0.167,-0.28,-0.04,lower',
      'Linus,c-epoll,30000,120,2000,false,true,2026-11-24T09:35:00+00:00,,,,',
    ]);
    expect(boardExportStem(experiment)).toBe('01-c10k-problem-a1b2c3d4e5f6');
  });

  it('exports a series as peaks, every point (by server id) and the spread, named by the varied field', () => {
    const tables = boardTables(boardExperimentSchema.parse(seriesExperiment), t);
    expect(tables.map((t) => t.what)).toEqual(['peaks', 'points', 'spread']);
    const [peaks, points, spread] = tables.map((t) => t.table);
    expect(peaks?.rows[1]).toEqual(['Ada', 'c-epoll', 10, 40_000, 1000, 3, 4, true, true]);
    expect(points?.columns).toEqual(['student', 'server', 'connections', 'qps', 'p99_us', 'valid']);
    expect(points?.rows).toContainEqual(['Ada', 'c-poll', 1000, 9_000, 1000, false]);
    expect(spread?.rows[0]).toEqual(['c-poll', 10, 38_000, 38_000, 38_000, 1]);
  });

  it('names the tables in Chinese, and keeps the data (columns, the reference row) as it is', async () => {
    await i18next.changeLanguage('zh');
    const [results] = boardTables(boardExperimentSchema.parse(runExperiment), t);
    expect(results?.label).toBe('每位学生的结果');
    expect(toCsv(results!.table).split('\r\n').slice(0, 2)).toEqual([
      'student,server,qps,p50_us,p99_us,valid,stable,finished_at,qps_change,qps_change_low,qps_change_high,qps_call',
      'reference,c-epoll,60000,120,800,true,true,2026-11-24T09:35:00+00:00,,,,',
    ]);
    expect(boardTables(boardExperimentSchema.parse(seriesExperiment), t).map((table) => table.label)).toEqual([
      '每位学生的峰值',
      '全部数据点',
      '各数据点的分布',
    ]);
  });
});
