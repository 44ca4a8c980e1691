import {
  formatBytes,
  formatCalls,
  formatCount,
  formatLatencyTickUs,
  formatLatencyUs,
  formatMiB,
  formatQps,
  plural,
} from './format';
import { i18next } from './i18n';

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

  it('agrees a count with its unit', () => {
    expect(formatCount(1, 'thread')).toBe('1 thread');
    expect(formatCount(2, 'thread')).toBe('2 threads');
    expect(formatCount(0, 'connection')).toBe('0 connections');
    expect(formatCount(16000, 'connection')).toBe('16,000 connections');
    expect(formatCount(1, 'process', 'processes')).toBe('1 process');
    expect(formatCount(3, 'process', 'processes')).toBe('3 processes');
    expect(plural(1.5, 'second')).toBe('seconds');
    expect(formatCount(1, 'idleConnection')).toBe('1 idle connection');
    expect(formatCount(0, 'request')).toBe('0 requests');
    // A unit of words of its own is put together in English.
    expect(formatCount(2, 'process or thread', 'processes and threads')).toBe('2 processes and threads');
  });

  it('counts in Chinese with the measure word, one form for every number', async () => {
    await i18next.changeLanguage('zh');
    expect(formatCount(1, 'thread')).toBe('1 个线程');
    expect(formatCount(2, 'thread')).toBe('2 个线程');
    expect(formatCount(16000, 'connection')).toBe('16,000 个连接');
    expect(formatCount(3, 'request')).toBe('3 次请求');
  });

  it('writes latency ticks without trailing zeros and a bare zero at the foot', () => {
    expect(formatLatencyTickUs(0)).toBe('0');
    expect(formatLatencyTickUs(250)).toBe('250 µs');
    expect(formatLatencyTickUs(1000)).toBe('1 ms');
    expect(formatLatencyTickUs(1500)).toBe('1.5 ms');
    expect(formatLatencyTickUs(2_000_000)).toBe('2 s');
    expect(formatLatencyTickUs(0.5)).toBe('0.5 µs');
  });
});

describe('formatCalls', () => {
  it('keeps two decimals, and two significant digits below 0.1', () => {
    expect(formatCalls(2.0234)).toBe('2.02');
    expect(formatCalls(0.04)).toBe('0.04');
    expect(formatCalls(0.0043)).toBe('0.0043');
    expect(formatCalls(0)).toBe('0.00');
  });
});
