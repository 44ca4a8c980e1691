import { dateLocale, formatClock, formatListDate, isoFromInput, toInputValue, toLocalIso } from './dates';

describe('isoFromInput', () => {
  it('sends the wall-clock time typed with the browser’s offset, the same instant', () => {
    const iso = isoFromInput('2026-11-25T15:30');
    expect(iso).toMatch(/^2026-11-25T15:30:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(iso!)).toBe(new Date('2026-11-25T15:30').getTime());
  });

  it('gives nothing for an empty or malformed value', () => {
    expect(isoFromInput('')).toBeNull();
    expect(isoFromInput('tomorrow')).toBeNull();
    expect(isoFromInput('2026-13-45T99:99')).toBeNull();
  });

  it('round-trips through the input’s own format', () => {
    const date = new Date(2026, 10, 25, 9, 5);
    expect(toInputValue(date)).toBe('2026-11-25T09:05');
    expect(Date.parse(toLocalIso(date))).toBe(date.getTime());
  });
});

describe('dates in the interface’s language', () => {
  it('writes the day first in English, and in Chinese as Chinese does', () => {
    expect(dateLocale('en')).toBe('en-GB');
    expect(dateLocale('zh')).toBe('zh-Hans');
    expect(dateLocale(undefined)).toBe('en-GB');
    const local = toLocalIso(new Date(2026, 10, 25, 10, 8));
    expect(formatListDate(local, 'en')).toMatch(/^25 Nov,? 10:08$/);
    expect(formatListDate(local, 'zh')).toMatch(/^11月25日 10:08$/);
    expect(formatListDate('not a date', 'en')).toBe('not a date');
  });

  it('tells the time on a 24-hour clock in both languages, whatever the browser’s region', () => {
    const afternoon = new Date(2026, 10, 25, 14, 5);
    expect(formatClock(afternoon, 'en')).toBe('14:05');
    expect(formatClock(afternoon, 'zh')).toBe('14:05');
  });
});
