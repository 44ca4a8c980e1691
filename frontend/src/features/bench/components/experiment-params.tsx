import type { Server } from '@/lib/api-schemas';
import { formatBytes, formatInt } from '@/lib/format';

import type { Experiment } from '../lib/experiment-block';
import { knobLabel, knobValue } from '../lib/knob-display';

interface ExperimentParamsProps {
  experiment: Experiment;
  /** The catalog entries of the experiment's servers that the catalog knows. */
  servers: Server[];
}

function seconds(value: number): string {
  return `${value} s`;
}

function serverLabel(id: string, servers: Server[]): string {
  const entry = servers.find((s) => s.id === id);
  return entry ? `${entry.title} (${id})` : id;
}

/** The experiment's parameters as a compact definition list. */
export function ExperimentParams({ experiment, servers }: ExperimentParamsProps) {
  const ids = experiment.servers ?? (experiment.server ? [experiment.server] : []);
  const rows: [string, string][] = [
    [ids.length > 1 ? 'servers' : 'server', ids.map((id) => serverLabel(id, servers)).join(', ')],
  ];
  if (experiment.vary && experiment.values) {
    rows.push([experiment.vary.replaceAll('_', ' '), experiment.values.map(formatInt).join(', ')]);
  }
  if (experiment.protocol) rows.push(['protocol', experiment.protocol]);
  // One row for how the load connects: how many, and whether each request opens its own.
  const connections = [
    experiment.connections !== undefined ? formatInt(experiment.connections) : null,
    experiment.new_connection_per_request ? 'a new one per request' : null,
  ].filter((part): part is string => part !== null);
  if (connections.length) rows.push(['connections', connections.join(', ')]);
  if (experiment.idle_connections) rows.push(['idle connections', formatInt(experiment.idle_connections)]);
  if (experiment.rate) rows.push(['rate (open loop)', `${formatInt(experiment.rate)} req/s`]);
  if (experiment.payload_bytes !== undefined) rows.push(['payload', formatBytes(experiment.payload_bytes)]);
  if (experiment.warmup_s !== undefined) rows.push(['warm-up', seconds(experiment.warmup_s)]);
  if (experiment.duration_s !== undefined) rows.push(['duration', seconds(experiment.duration_s)]);
  if (experiment.repetitions && experiment.repetitions > 1) rows.push(['repetitions', String(experiment.repetitions)]);
  if (experiment.profile === 'syscalls') rows.push(['profile', 'system calls (counted by perf)']);
  for (const [name, value] of Object.entries(experiment.knobs ?? {})) {
    const knob = servers.flatMap((s) => s.knobs).find((k) => k.name === name);
    rows.push([knobLabel(name, knob), knobValue(value, knob)]);
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
