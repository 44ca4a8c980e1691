/**
 * The lab's knobs, laid out compactly: a knob every chosen server has alike (the read buffer,
 * the listen backlog) is shown once and set for all of them; the rest are each server's own.
 */
import type { Knob, Server } from '@/lib/api-schemas';

import type { KnobValue, LabSetup } from './lab-setup';

export interface SharedKnob {
  knob: Knob;
  value: KnobValue;
}

export interface KnobLayout {
  /** Shown once, set for every chosen server. Empty with fewer than two servers. */
  shared: SharedKnob[];
  /** Each chosen server with knobs, and those that are its alone. */
  own: { server: Server; knobs: Knob[] }[];
}

/** The catalog's description of a knob, without its help: two servers' knobs are the same knob
 *  when they take the same values by the same name (their help may word it for each server). */
function sameKnob(a: Knob, b: Knob): boolean {
  const spec = (k: Knob) => JSON.stringify([k.name, k.label, k.type, k.default, k.min, k.max, k.values, k.unit]);
  return spec(a) === spec(b);
}

export function knobValue(setup: LabSetup, server: string, knob: Knob): KnobValue {
  return setup.knobs[server]?.[knob.name] ?? knob.default;
}

/** A knob is shared when every chosen server has it alike and set alike: one set apart (from a
 *  shared link, or a lesson's per-server knobs) stays with each server, so nothing is hidden.
 *  (Object.is: a value being typed is NaN for a moment, and NaN is not === itself.) */
export function knobLayout(setup: LabSetup, servers: Server[]): KnobLayout {
  const chosen = servers.filter((s) => setup.servers.includes(s.id));
  const [first, ...rest] = chosen;
  const shared: SharedKnob[] = [];
  if (first && rest.length > 0) {
    for (const knob of first.knobs) {
      const value = knobValue(setup, first.id, knob);
      const alike = rest.every((s) => {
        const theirs = s.knobs.find((k) => k.name === knob.name);
        return theirs !== undefined && sameKnob(theirs, knob) && Object.is(knobValue(setup, s.id, theirs), value);
      });
      if (alike) shared.push({ knob, value });
    }
  }
  const sharedNames = new Set(shared.map((s) => s.knob.name));
  const own = chosen
    .map((server) => ({ server, knobs: server.knobs.filter((k) => !sharedNames.has(k.name)) }))
    .filter((entry) => entry.knobs.length > 0);
  return { shared, own };
}

/** The setup with a shared knob set for every chosen server. */
export function withSharedKnob(setup: LabSetup, name: string, value: KnobValue): LabSetup {
  const knobs = { ...setup.knobs };
  for (const server of setup.servers) knobs[server] = { ...knobs[server], [name]: value };
  return { ...setup, knobs };
}
