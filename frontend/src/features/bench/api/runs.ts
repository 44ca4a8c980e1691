import { apiRequest } from '@/lib/api-client';
import { runCreatedSchema } from '@/lib/api-schemas';

import type { ExperimentOrigin, RunRequest } from '../lib/experiment-block';

/** POST /api/runs; `origin` (the lesson and block) tags the run for the class board. A run's
 *  own calls (GET, DELETE, its events) are every feature's: src/lib/runs-api.ts. */
export function createRun(request: RunRequest, origin?: ExperimentOrigin) {
  return apiRequest('/runs', runCreatedSchema, { method: 'POST', body: { ...request, ...origin } });
}
