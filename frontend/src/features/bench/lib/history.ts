/** A history entry in words, and the lab link that reopens it. Pure, for the page and tests. */
import type { TFunction } from 'i18next';

import type { HistoryEntry, RunField, RunRequest, SweepRequest } from '@/lib/api-schemas';
import { formatInt } from '@/lib/format';

import { labUrl, setupFromRequest, type LabSetup } from './lab-setup';
import { variedName, versus } from './words';

/** "c-epoll, 100 connections" or "c-epoll vs c-poll over connections 10–1000". */
export function describeEntry(entry: HistoryEntry, t: TFunction<'bench'>): string {
  const servers = versus(entry.servers, t);
  if (entry.kind === 'sweep' && entry.vary && entry.values && entry.values.length > 1) {
    const low = Math.min(...entry.values);
    const high = Math.max(...entry.values);
    return t('history.entry.over', { servers, field: variedName(entry.vary, t), low, high });
  }
  const connections = entry.kind === 'sweep' ? entry.values?.[0] : entry.request.connections;
  return typeof connections === 'number'
    ? t('history.entry.connections', { servers, count: connections, connections: formatInt(connections) })
    : servers;
}

/** The entry as the lab setup that runs it again. */
export function entrySetup(entry: HistoryEntry): LabSetup {
  // The history keeps a request's run fields as a plain record (a sweep's: its base).
  const settings = Object.fromEntries(Object.entries(entry.request).filter(([, v]) => v !== null)) as Omit<RunRequest, 'server'>;
  const knobs = entry.knobs ?? {};
  if (entry.kind === 'run') return setupFromRequest({ ...settings, server: entry.servers[0] ?? '', knobs });
  const sweep: SweepRequest = {
    servers: entry.servers,
    vary: entry.vary ?? 'connections',
    values: entry.values ?? [],
    base: { ...settings, knobs },
    server_knobs: entry.server_knobs ?? null,
  };
  return setupFromRequest(sweep);
}

/** `/lab?…` for the entry, with only what differs from the defaults when they are known. */
export function entryLabUrl(entry: HistoryEntry, fields: RunField[] = []): string {
  return labUrl(entrySetup(entry), fields);
}
