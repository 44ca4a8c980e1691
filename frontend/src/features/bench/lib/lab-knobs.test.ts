import { describe, expect, it } from 'vitest';

import type { Knob, Server } from '@/lib/api-schemas';
import { servers } from '@/testing/fixtures';

import { knobLayout, withSharedKnob } from './lab-knobs';
import { EMPTY_SETUP, type LabSetup } from './lab-setup';

const [epoll] = servers;
const buffer = epoll!.knobs.find((k) => k.name === 'buffer_bytes')!;
const withKnobs = (id: string, knobs: Knob[]): Server => ({ ...epoll!, id, knobs });
const SERVERS = [epoll!, withKnobs('c-select', [buffer]), withKnobs('c-odd', [{ ...buffer, max: 4096 }])];
const setup = (partial: Partial<LabSetup>): LabSetup => ({ ...EMPTY_SETUP, ...partial });
const names = (knobs: Knob[]) => knobs.map((k) => k.name);

describe('knobLayout', () => {
  it('shows a knob every chosen server has alike once, and the rest per server', () => {
    const layout = knobLayout(setup({ servers: ['c-epoll', 'c-select'] }), SERVERS);
    expect(layout.shared.map((s) => [s.knob.name, s.value])).toEqual([['buffer_bytes', 16384]]);
    expect(layout.own.map((o) => [o.server.id, names(o.knobs)])).toEqual([['c-epoll', ['trigger']]]);
  });

  it('keeps every knob with its server for one server, a knob unlike its namesake, or one set apart', () => {
    expect(knobLayout(setup({ servers: ['c-epoll'] }), SERVERS).shared).toEqual([]);
    expect(knobLayout(setup({ servers: ['c-epoll', 'c-odd'] }), SERVERS).shared).toEqual([]);
    const apart = knobLayout(setup({ servers: ['c-epoll', 'c-select'], knobs: { 'c-select': { buffer_bytes: 4096 } } }), SERVERS);
    expect(apart.shared).toEqual([]);
    expect(apart.own.map((o) => [o.server.id, names(o.knobs)])).toEqual([
      ['c-epoll', ['trigger', 'buffer_bytes']],
      ['c-select', ['buffer_bytes']],
    ]);
  });

  it('sets a shared knob for every chosen server, and stays shared while a value is being typed', () => {
    const typed = withSharedKnob(setup({ servers: ['c-epoll', 'c-select'] }), 'buffer_bytes', Number.NaN);
    expect(typed.knobs).toEqual({ 'c-epoll': { buffer_bytes: Number.NaN }, 'c-select': { buffer_bytes: Number.NaN } });
    expect(names(knobLayout(typed, SERVERS).shared.map((s) => s.knob))).toEqual(['buffer_bytes']);
  });
});
