/** A history entry in words, and the lab link that reopens it. Pure, for the page and tests. */
import { formatCount } from '@/lib/format';

import type { HistoryEntry } from '../api/lab';

import type { Experiment } from './experiment-block';
import { EMPTY_SETUP, setupFromExperiment, setupToSearch, type LabField, type LabSetup } from './lab-setup';

const VARIED_LABELS: Record<string, string> = {
  connections: 'connections',
  idle_connections: 'idle connections',
  rate: 'rate',
  payload_bytes: 'payload',
};

/** "c-epoll, 100 connections" or "c-epoll vs c-poll over connections 10–1000". */
export function describeEntry(entry: HistoryEntry): string {
  const servers = entry.servers.join(' vs ');
  if (entry.kind === 'sweep' && entry.vary && entry.values && entry.values.length > 1) {
    const low = Math.min(...entry.values);
    const high = Math.max(...entry.values);
    return `${servers} over ${VARIED_LABELS[entry.vary] ?? entry.vary} ${low}–${high}`;
  }
  const connections = entry.kind === 'sweep' ? entry.values?.[0] : entry.request.connections;
  return typeof connections === 'number' ? `${servers}, ${formatCount(connections, 'connection')}` : servers;
}

/** The entry as the lab setup that runs it again. */
export function entrySetup(entry: HistoryEntry): LabSetup {
  const fields = Object.fromEntries(Object.entries(entry.request).filter(([, v]) => v !== null)) as Experiment;
  const experiment: Experiment = {
    ...fields,
    ...(entry.kind === 'run' ? { server: entry.servers[0] } : { servers: entry.servers }),
    ...(entry.kind === 'sweep' && entry.vary && entry.values ? { vary: entry.vary, values: entry.values } : {}),
    ...(Object.keys(entry.knobs).length ? { knobs: entry.knobs } : {}),
  };
  return setupFromExperiment(experiment);
}

/** `/lab?…` for the entry, with only what differs from the defaults when they are known. */
export function entryLabUrl(entry: HistoryEntry, fields: LabField[] = []): string {
  return labUrl(entrySetup(entry), fields);
}

/** The lab's route for a setup. */
export function labUrl(setup: LabSetup = EMPTY_SETUP, fields: LabField[] = []): string {
  const search = setupToSearch(setup, fields);
  return search ? `/lab?${search}` : '/lab';
}
