/**
 * An experiment's setup as labelled rows, in the interface's language: its servers, what it
 * varies, how the load connects, payload, duration, knobs. The parameters a widget lists, and
 * the setup every export of its result carries.
 */
import type { TFunction } from 'i18next';

import type { RunRequest, Server, SweepRequest } from '@/lib/api-schemas';
import { formatBytes, formatInt } from '@/lib/format';

import { knobLabel, knobValue } from './knob-display';
import { listed, variedName } from './words';

type Settings = Omit<RunRequest, 'server'>;

/** The request as the rows need it: its servers, the varied values (a series of more than
 *  one), and the settings every run shares (a one-value series' value among them). */
function readRequest(request: RunRequest | SweepRequest) {
  if (!('servers' in request)) {
    const { server, ...settings } = request;
    return { ids: [server], varied: null, settings, own: {} };
  }
  const { servers, vary, values, base = {}, server_knobs: own } = request;
  const [only] = values;
  const varied = values.length > 1 ? { vary, values } : null;
  const settings: Settings = values.length === 1 && only !== undefined ? { ...base, [vary]: only } : base;
  return { ids: servers, varied, settings, own: own ?? {} };
}

/** The catalog's entry for a knob: of `server` when given, else of any of the servers. */
function catalogKnob(name: string, servers: Server[], server?: string) {
  const where = server ? servers.filter((e) => e.id === server) : servers;
  return where.flatMap((e) => e.knobs).find((k) => k.name === name);
}

function serverLabel(id: string, servers: Server[]): string {
  const entry = servers.find((s) => s.id === id);
  return entry ? `${entry.title} (${id})` : id;
}

/** The request's setup as [label, value] rows: what ExperimentParams lists. */
export function setupRows(request: RunRequest | SweepRequest, servers: Server[], t: TFunction<'bench'>): [string, string][] {
  const { ids, varied, settings: s, own } = readRequest(request);
  const rows: [string, string][] = [
    [t('params.server', { count: ids.length }), ids.map((id) => serverLabel(id, servers)).join(', ')],
  ];
  if (varied) rows.push([variedName(varied.vary, t), varied.values.map(formatInt).join(', ')]);
  if (s.protocol) rows.push([t('params.protocol'), s.protocol]);
  // One row for how the load connects: how many, and whether each request opens its own.
  const connections = [
    s.connections !== undefined ? formatInt(s.connections) : null,
    s.new_connection_per_request ? t('params.newPerRequest') : null,
  ].filter((part): part is string => part !== null);
  if (connections.length) rows.push([t('params.connections'), listed(connections, t)]);
  if (s.idle_connections) rows.push([t('params.idleConnections'), formatInt(s.idle_connections)]);
  if (s.rate) rows.push([t('params.rate'), `${formatInt(s.rate)} req/s`]);
  if (s.payload_bytes !== undefined) rows.push([t('params.payload'), formatBytes(s.payload_bytes)]);
  if (s.warmup_s !== undefined) rows.push([t('params.warmup'), `${s.warmup_s} s`]);
  if (s.duration_s !== undefined) rows.push([t('params.duration'), `${s.duration_s} s`]);
  if (s.repetitions && s.repetitions > 1) rows.push([t('params.repetitions'), String(s.repetitions)]);
  if (s.profile === 'syscalls') rows.push([t('params.profile'), t('params.syscallProfile')]);
  // A run's knobs are its one server's (a learner's edit is none in the catalog); a series'
  // shared knobs are any of its servers'.
  const [only] = ids.length === 1 ? ids : [];
  for (const [name, value] of Object.entries(s.knobs ?? {})) {
    const knob = catalogKnob(name, servers, only) ?? catalogKnob(name, servers);
    rows.push([knobLabel(name, knob, t, only), knobValue(value, knob, t, only)]);
  }
  // A series' knobs of one server only, named with their server.
  for (const [id, knobs] of Object.entries(own)) {
    for (const [name, value] of Object.entries(knobs)) {
      const knob = catalogKnob(name, servers, id);
      rows.push([t('params.knobOf', { knob: knobLabel(name, knob, t, id), server: id }), knobValue(value, knob, t, id)]);
    }
  }

  return rows;
}
