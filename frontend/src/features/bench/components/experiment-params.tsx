import { useTranslation } from 'react-i18next';

import type { RunRequest, Server, SweepRequest } from '@/lib/api-schemas';

import { setupRows } from '../lib/setup-rows';

interface ExperimentParamsProps {
  /** What is run: one run's request (POST /api/runs) or a series' (POST /api/sweeps). */
  request: RunRequest | SweepRequest;
  /** The catalog entries of the experiment's servers that the catalog knows. */
  servers: Server[];
}

/** The experiment's parameters as a compact definition list. */
export function ExperimentParams({ request, servers }: ExperimentParamsProps) {
  const { t } = useTranslation('bench');
  const rows = setupRows(request, servers, t);

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
