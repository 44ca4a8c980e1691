import type { Knob } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';

import { knobLabel, knobValue } from './knob-display';

/** The English strings, as the interface shows them before a language is chosen. */
const t = i18next.getFixedT('en', 'bench');

const knob = (extra: Partial<Knob>): Knob => ({ name: 'k', label: 'k', flag: '--k', type: 'int', default: 0, help: 'h', ...extra });

describe('knob display', () => {
  it('reads a knob by its catalog label, or its name in words without one', () => {
    expect(knobLabel('stack_kib', knob({ label: 'thread stack' }))).toBe('thread stack');
    expect(knobLabel('stack_kib', undefined)).toBe('stack kib');
  });

  it('writes a value in its unit, counted things agreeing in number', () => {
    expect(knobValue(8192, knob({ unit: 'KiB' }), t)).toBe('8,192 KiB');
    expect(knobValue(16384, knob({ unit: 'bytes' }), t)).toBe('16 KiB');
    expect(knobValue(1, knob({ unit: 'threads' }), t)).toBe('1 thread');
    expect(knobValue(4, knob({ unit: 'threads' }), t)).toBe('4 threads');
    expect(knobValue(1024, knob({ unit: 'entries' }), t)).toBe('1,024 entries');
    expect(knobValue(1, knob({ unit: 'entries' }), t)).toBe('1 entry');
    expect(knobValue(true, knob({ type: 'bool' }), t)).toBe('on');
    expect(knobValue(false, knob({ type: 'bool' }), t)).toBe('off');
    expect(knobValue('et', knob({ type: 'enum' }), t)).toBe('et');
    expect(knobValue(64, undefined, t)).toBe('64');
  });
});
