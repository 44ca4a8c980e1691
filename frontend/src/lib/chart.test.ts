import {
  barValuesPlugin,
  DISTINCT_SERIES,
  FALLBACK_THEMES,
  latencyAxis,
  lineLook,
  logTickLabel,
  overTimeOptions,
  readChartTheme,
  REFERENCE_DASH,
  seriesStyle,
  UNSTABLE_POINT,
  timeAxis,
  unstableCaption,
  variedAxis,
  withAlpha,
} from './chart';
import { i18next } from './i18n';

const look = (i: number) => {
  const s = seriesStyle(i);
  return `${s.colour}|${s.dash.join(',')}`;
};

describe('chart styles', () => {
  it('gives twelve series twelve different looks, two of one colour differing in line and point', () => {
    expect(DISTINCT_SERIES).toBe(12);
    const looks = Array.from({ length: 12 }, (_, i) => look(i));
    expect(new Set(looks).size).toBe(12);
    for (let i = 0; i < 12; i++) {
      for (let j = i + 1; j < 12; j++) {
        const [a, b] = [seriesStyle(i), seriesStyle(j)];
        if (a.colour === b.colour) {
          expect(a.dash).not.toEqual(b.dash);
          expect(a.pointStyle).not.toBe(b.pointStyle);
        }
      }
    }
    // The thirteenth repeats the first; an index is a stable look.
    expect(look(12)).toBe(look(0));
    expect(seriesStyle(3)).toEqual(seriesStyle(3));
  });

  it('keeps the reference dots and the unstable cross for themselves', () => {
    for (let i = 0; i < 12; i++) {
      expect(seriesStyle(i).dash).not.toEqual(REFERENCE_DASH);
      expect(seriesStyle(i).pointStyle).not.toBe(UNSTABLE_POINT.pointStyle);
    }
    const reference = lineLook('#0072B2', 'reference');
    expect(reference.borderDash).toEqual(REFERENCE_DASH);
    expect(reference.borderColor).toBe('rgba(0, 114, 178, 0.6)');
    expect(lineLook('#0072B2', 'live').borderColor).toBe('#0072B2');
    expect(withAlpha('not a colour', 0.5)).toBe('not a colour');
  });

  it('writes only 1, 2 and 5 of each decade on a log axis', () => {
    const labels = [1, 2, 3, 5, 7, 10, 20, 40, 50, 100].map((v) => logTickLabel(v, String));
    expect(labels).toEqual(['1', '2', '', '5', '', '10', '20', '', '50', '100']);
    expect(logTickLabel(0, String)).toBe('');
  });

  it('switches a latency axis to log and never writes 0.0 µs at its foot', () => {
    const theme = FALLBACK_THEMES.light;
    const linear = latencyAxis({ log: false, usPerUnit: 1, title: 'p99 latency', theme });
    expect(linear.type).toBe('linear');
    expect(linear.ticks.callback(0)).toBe('0');
    expect(linear.ticks.callback(1500)).toBe('1.5 ms');
    const log = latencyAxis({ log: true, usPerUnit: 1000, title: 'latency', theme });
    expect(log.type).toBe('logarithmic');
    expect(log.beginAtZero).toBe(false);
    expect(log.title.text).toBe('latency (log scale)');
    expect(log.ticks.callback(2)).toBe('2 ms');
    expect(log.ticks.callback(3)).toBe('');
  });

  it('draws a chart over a run’s time with the live options, time along x and its own y axes', () => {
    const theme = FALLBACK_THEMES.light;
    const y = { type: 'linear', beginAtZero: true } as const;
    const options = overTimeOptions(12, theme, { scales: { y }, plugins: { legend: { display: false } } });
    expect(options).toMatchObject({ animation: false, parsing: false, plugins: { legend: { display: false } } });
    expect(options.scales).toEqual({ x: timeAxis(12, theme), y });
  });

  it('titles the axes and the unstable points in the language in force when called', async () => {
    const theme = FALLBACK_THEMES.light;
    expect(timeAxis(10, theme).title.text).toBe('time since the run started (s)');
    await i18next.changeLanguage('zh');
    expect(timeAxis(10, theme).title.text).toBe('运行开始后的时间（秒）');
    expect(latencyAxis({ log: true, usPerUnit: 1, title: '延迟', theme }).title.text).toBe('延迟（对数刻度）');
    expect(unstableCaption()).toMatch(/^× 表示不稳定的点/);
  });

  it('reads the theme from custom properties, falling back per theme', () => {
    const root = document.createElement('div');
    root.dataset.theme = 'dark';
    document.body.append(root);
    expect(readChartTheme(root)).toEqual(FALLBACK_THEMES.dark);
    root.style.setProperty('--color-grid', '#333333');
    expect(readChartTheme(root).grid).toBe('#333333');
    root.remove();
  });
});

describe('variedAxis', () => {
  const theme = { text: '#111', grid: '#eee' } as Parameters<typeof variedAxis>[3];

  it('ticks a log axis at the values measured, dropping any that would overlap', () => {
    const axis = variedAxis([10, 100, 1000, 10000], true, 'connections', theme);
    expect(axis.type).toBe('logarithmic');
    const scale = { ticks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20].map((value) => ({ value })) };
    expect(axis.afterBuildTicks).toBeDefined();
    axis.afterBuildTicks?.(scale);
    expect(scale.ticks).toEqual([{ value: 10 }, { value: 100 }, { value: 1000 }, { value: 10000 }]);
    expect(axis.ticks.autoSkip).toBe(true);
    expect(axis.ticks.callback(10000)).toBe('10,000');
  });

  it('leaves a linear axis to Chart.js', () => {
    const axis = variedAxis([1, 2, 3], false, 'payload', theme);
    expect(axis.type).toBe('linear');
    expect(axis.afterBuildTicks).toBeUndefined();
  });
});

describe('barValuesPlugin', () => {
  it('writes each bar\'s figure above it with the given format, as given (not as a scriptable option)', () => {
    const fillText = vi.fn();
    const bar = (x: number, y: number) => ({ getProps: () => ({ x, y }) });
    const chart = {
      ctx: { save: vi.fn(), restore: vi.fn(), fillText, fillStyle: '', font: '', textAlign: '', textBaseline: '' },
      config: { options: { plugins: { barValues: { format: (v: number) => v.toFixed(2), color: '#111' } } } },
      data: { datasets: [{ data: [{ y: 2.5 }, { y: 0.04 }, { y: null }] }] },
      getDatasetMeta: () => ({ hidden: false, data: [bar(10, 50), bar(30, 98), bar(50, 100)] }),
    };
    (barValuesPlugin.afterDatasetsDraw as unknown as (c: typeof chart) => void)(chart);
    expect(fillText.mock.calls).toEqual([
      ['2.50', 10, 47],
      ['0.04', 30, 95],
    ]);
  });
});
