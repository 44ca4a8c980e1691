import { endsAtFromInput, toInputValue, toLocalIso } from './ends-at';

describe('endsAtFromInput', () => {
  it('sends the wall-clock time typed with the browser’s offset, the same instant', () => {
    const iso = endsAtFromInput('2026-11-25T15:30');
    expect(iso).toMatch(/^2026-11-25T15:30:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(iso!)).toBe(new Date('2026-11-25T15:30').getTime());
  });

  it('gives nothing for an empty or malformed value', () => {
    expect(endsAtFromInput('')).toBeNull();
    expect(endsAtFromInput('tomorrow')).toBeNull();
    expect(endsAtFromInput('2026-13-45T99:99')).toBeNull();
  });

  it('round-trips through the input’s own format', () => {
    const date = new Date(2026, 10, 25, 9, 5);
    expect(toInputValue(date)).toBe('2026-11-25T09:05');
    expect(Date.parse(toLocalIso(date))).toBe(date.getTime());
  });
});
