import { i18next } from '@/lib/i18n';
import { runExperiment, seriesExperiment, untouchedExperiment } from '@/testing/classroom-fixtures';

import { hasResults, peakPoint, plottedBars, plottedLines, resultNote, runBars, seriesLines } from './board-chart-data';
import { boardExperimentSchema } from './classroom-schemas';

const run = boardExperimentSchema.parse(runExperiment);
const series = boardExperimentSchema.parse(seriesExperiment);
const untouched = boardExperimentSchema.parse(untouchedExperiment);
/** The classroom's t() in the language of the moment (English unless a test switches). */
const t = i18next.getFixedT(null, 'classroom');

describe('runBars', () => {
  it('puts the reference first, then one named bar per student, invalid ones flagged', () => {
    const bars = runBars(run, 'qps', t);
    expect(bars.map((b) => [b.id, b.label, b.value, b.reference, b.flagged])).toEqual([
      ['reference', 'reference', 60_000, true, false],
      ['p-ada', 'Ada', 50_000, false, false],
      ['p-linus', 'Linus', 30_000, false, true],
    ]);
    expect(bars[2]?.note).toBe('invalid');
    expect(runBars(run, 'p99_us', t).map((b) => b.value)).toEqual([800, 900, 2000]);
    expect(plottedBars(bars)).toBe(3);
  });

  it('has only the reference for an experiment nobody ran', () => {
    expect(hasResults(untouched)).toBe(false);
    expect(runBars(untouched, 'qps', t).map((b) => b.label)).toEqual(['reference']);
  });

  it('names the reference and the notes in Chinese, its id unchanged', async () => {
    await i18next.changeLanguage('zh');
    const bars = runBars(run, 'qps', t);
    expect(bars.map((b) => [b.id, b.label])).toEqual([
      ['reference', '参考结果'],
      ['p-ada', 'Ada'],
      ['p-linus', 'Linus'],
    ]);
    expect(bars[2]?.note).toBe('无效');
    expect(resultNote({ valid: false, stable: false }, t)).toBe('无效、不稳定');
  });
});

describe('seriesLines', () => {
  it('draws a line per student and server over the varied values, gaps where a point is invalid', () => {
    const { values, lines, varies } = seriesLines(series, 'qps', t);
    expect(values).toEqual([10, 1000]);
    expect(varies).toBe(true);
    expect(lines.map((l) => [l.id, l.label, l.reference, l.person, l.serverIndex])).toEqual([
      ['reference:c-poll', 'reference · c-poll', true, -1, 0],
      ['reference:c-epoll', 'reference · c-epoll', true, -1, 1],
      ['p-ada:c-poll', 'Ada · c-poll', false, 0, 0],
      ['p-ada:c-epoll', 'Ada · c-epoll', false, 0, 1],
    ]);
    expect(lines[2]?.points).toEqual([
      { x: 10, y: 38_000 },
      { x: 1000, y: null },
    ]);
    expect(plottedLines({ values, lines, varies })).toBe(7);
  });

  it('names lines by the student alone when the series has one server, and does not vary on one value', () => {
    const onePoint = boardExperimentSchema.parse({
      ...seriesExperiment,
      reference: null,
      results: [{ ...seriesExperiment.results[0], points: [{ server: 'c-epoll', value: 10, qps: 1, p99_us: 2, valid: true }] }],
    });
    const { lines, varies } = seriesLines(onePoint, 'p99_us', t);
    expect(varies).toBe(false);
    expect(lines.map((l) => [l.label, l.points])).toEqual([['Ada', [{ x: 10, y: 2 }]]]);
  });
});

describe('a result in words', () => {
  it('notes invalid and unstable results, and finds a series’ best valid point', () => {
    expect(resultNote({ valid: true, stable: true }, t)).toBe('');
    expect(resultNote({ valid: false, stable: false }, t)).toBe('invalid, unstable');
    expect(resultNote({ valid: null, stable: true }, t)).toBe('');
    expect(resultNote({ valid: true, stable: false }, t)).toBe('unstable');
    expect(resultNote({ valid: null, stable: null }, t)).toBe('');
    expect(peakPoint(series.results[0]!)).toMatchObject({ server: 'c-epoll', value: 10, qps: 40_000 });
    expect(peakPoint(run.results[0]!)).toBeNull();
  });
});
