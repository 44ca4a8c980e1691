import type { Server } from '@/lib/api-schemas';
import { formatBytes, formatInt } from '@/lib/format';

import type { Experiment } from '../lib/experiment-block';

interface ExperimentParamsProps {
  experiment: Experiment;
  server: Server | undefined;
}

function seconds(value: number): string {
  return `${value} s`;
}

/** The experiment's parameters as a compact definition list. */
export function ExperimentParams({ experiment, server }: ExperimentParamsProps) {
  const rows: [string, string][] = [
    ['server', server ? `${server.title} (${experiment.server})` : experiment.server],
  ];
  if (experiment.protocol) rows.push(['protocol', experiment.protocol]);
  if (experiment.connections !== undefined) rows.push(['connections', formatInt(experiment.connections)]);
  if (experiment.payload_bytes !== undefined) rows.push(['payload', formatBytes(experiment.payload_bytes)]);
  if (experiment.warmup_s !== undefined) rows.push(['warm-up', seconds(experiment.warmup_s)]);
  if (experiment.duration_s !== undefined) rows.push(['duration', seconds(experiment.duration_s)]);
  for (const [name, value] of Object.entries(experiment.knobs ?? {})) {
    const knob = server?.knobs.find((k) => k.name === name);
    rows.push([name, `${String(value)}${knob?.unit ? ` ${knob.unit}` : ''}`]);
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
