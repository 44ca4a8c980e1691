import type { RunRequest, Server, SweepRequest } from '@/lib/api-schemas';
import { formatBytes, formatInt } from '@/lib/format';

import { knobLabel, knobValue } from '../lib/knob-display';

interface ExperimentParamsProps {
  /** What is run: one run's request (POST /api/runs) or a series' (POST /api/sweeps). */
  request: RunRequest | SweepRequest;
  /** The catalog entries of the experiment's servers that the catalog knows. */
  servers: Server[];
}

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

function seconds(value: number): string {
  return `${value} s`;
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

/** The experiment's parameters as a compact definition list. */
export function ExperimentParams({ request, servers }: ExperimentParamsProps) {
  const { ids, varied, settings: s, own } = readRequest(request);
  const rows: [string, string][] = [
    [ids.length > 1 ? 'servers' : 'server', ids.map((id) => serverLabel(id, servers)).join(', ')],
  ];
  if (varied) rows.push([varied.vary.replaceAll('_', ' '), varied.values.map(formatInt).join(', ')]);
  if (s.protocol) rows.push(['protocol', s.protocol]);
  // One row for how the load connects: how many, and whether each request opens its own.
  const connections = [
    s.connections !== undefined ? formatInt(s.connections) : null,
    s.new_connection_per_request ? 'a new one per request' : null,
  ].filter((part): part is string => part !== null);
  if (connections.length) rows.push(['connections', connections.join(', ')]);
  if (s.idle_connections) rows.push(['idle connections', formatInt(s.idle_connections)]);
  if (s.rate) rows.push(['rate (open loop)', `${formatInt(s.rate)} req/s`]);
  if (s.payload_bytes !== undefined) rows.push(['payload', formatBytes(s.payload_bytes)]);
  if (s.warmup_s !== undefined) rows.push(['warm-up', seconds(s.warmup_s)]);
  if (s.duration_s !== undefined) rows.push(['duration', seconds(s.duration_s)]);
  if (s.repetitions && s.repetitions > 1) rows.push(['repetitions', String(s.repetitions)]);
  if (s.profile === 'syscalls') rows.push(['profile', 'system calls (counted by perf)']);
  for (const [name, value] of Object.entries(s.knobs ?? {})) {
    const knob = catalogKnob(name, servers);
    rows.push([knobLabel(name, knob), knobValue(value, knob)]);
  }
  // A series' knobs of one server only, named with their server.
  for (const [id, knobs] of Object.entries(own)) {
    for (const [name, value] of Object.entries(knobs)) {
      const knob = catalogKnob(name, servers, id);
      rows.push([`${knobLabel(name, knob)} (${id})`, knobValue(value, knob)]);
    }
  }

  return (
    <dl className="experiment-params" data-testid="experiment-params">
      {rows.map(([name, value]) => (
        <div key={name} className="experiment-params__item">
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
