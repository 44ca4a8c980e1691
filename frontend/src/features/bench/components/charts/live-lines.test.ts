import { palette, REFERENCE_DASH } from '@/lib/chart';

import { liveLines } from './live-lines';

const figures = [
  { id: 'cpu', name: 'CPU', colour: palette.blue, yAxisID: 'y' },
  { id: 'memory', name: 'memory', colour: palette.orange, dash: [8, 4], yAxisID: 'memory' },
] as const;
const series = { cpu: [{ x: 1, y: 50 }], memory: [{ x: 1, y: 12 }] };

describe('liveLines', () => {
  it('draws a line per figure, named by it alone when there is no reference', () => {
    const lines = liveLines(figures, series, null, null, { pointRadius: 2, liveWord: 'your run' });
    expect(lines.map((l) => [l.id, l.label, l.yAxisID, l.pointRadius, l.borderDash])).toEqual([
      ['cpu', 'CPU', 'y', 2, []],
      ['memory', 'memory', 'memory', 2, [8, 4]],
    ]);
  });

  it('draws the reference’s figures after, dotted with smaller points, and says whose each line is', () => {
    const reference = { label: 'reference (recorded 2026-11-22)' };
    const referenceSeries = { cpu: [], memory: [{ x: 1, y: 10 }] };
    const lines = liveLines(figures, series, reference, referenceSeries, { pointRadius: 3, liveWord: 'your run' });
    expect(lines.map((l) => [l.id, l.label, l.pointRadius])).toEqual([
      ['cpu', 'CPU · your run', 3],
      ['memory', 'memory · your run', 3],
      ['reference:cpu', 'CPU · reference (recorded 2026-11-22)', 2.5],
      ['reference:memory', 'memory · reference (recorded 2026-11-22)', 2.5],
    ]);
    expect(lines[3]).toMatchObject({ data: referenceSeries.memory, yAxisID: 'memory', borderDash: REFERENCE_DASH });
  });

  it('leaves the axis to the chart for a figure that names none', () => {
    const [line] = liveLines([{ id: 'p50', name: 'p50', colour: palette.green }], { p50: [] }, null, null, { pointRadius: 3, liveWord: 'live' });
    expect(line).not.toHaveProperty('yAxisID');
  });
});
