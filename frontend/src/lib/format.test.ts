import { formatBytes, formatLatencyUs, formatMiB, formatQps } from './format';

describe('format', () => {
  it('formats latency in a readable unit', () => {
    expect(formatLatencyUs(5.25)).toBe('5.3 µs');
    expect(formatLatencyUs(120)).toBe('120 µs');
    expect(formatLatencyUs(2100)).toBe('2.10 ms');
    expect(formatLatencyUs(45_000)).toBe('45.0 ms');
    expect(formatLatencyUs(2_500_000)).toBe('2.50 s');
  });

  it('formats throughput, bytes and MiB', () => {
    expect(formatQps(51234.5)).toBe('51,235');
    expect(formatQps(12.34)).toBe('12.3');
    expect(formatBytes(64)).toBe('64 B');
    expect(formatBytes(16384)).toBe('16 KiB');
    expect(formatMiB(5 * 1024 * 1024)).toBe('5 MiB');
  });
});
