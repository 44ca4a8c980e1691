import { z } from 'zod';

import { apiRequest } from '@/lib/api-client';

// TODO(contract): replaced by the generated schemas once GET /api/lab/fields and /api/history are generated.
const labFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  help: z.string(),
  kind: z.enum(['int', 'float', 'bool', 'choice']),
  unit: z.string().nullish(),
  units: z.string().nullish(),
  min: z.number().nullish(),
  min_exclusive: z.boolean().optional(),
  max: z.number().nullish(),
  default: z.union([z.number(), z.boolean(), z.string()]),
  choices: z.array(z.string()).nullish(),
  sweepable: z.boolean(),
});
export const labFieldsSchema = z.object({
  fields: z.array(labFieldSchema),
  max_sweep_points: z.number().int(),
  max_sweep_servers: z.number().int(),
});
export type LabFields = z.infer<typeof labFieldsSchema>;

export const historyEntrySchema = z.object({
  kind: z.enum(['run', 'sweep']),
  id: z.string(),
  created_at: z.string(),
  servers: z.array(z.string()),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  lesson: z.string().nullish(),
  experiment: z.string().nullish(),
  request: z.record(z.string(), z.union([z.number(), z.boolean(), z.string(), z.null()])),
  knobs: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
  vary: z.enum(['connections', 'idle_connections', 'rate', 'payload_bytes']).nullish(),
  values: z.array(z.number()).nullish(),
  points: z.number().int().nullish(),
  points_ended: z.number().int().nullish(),
  qps: z.number().nullish(),
  p99_us: z.number().nullish(),
  valid: z.boolean().nullish(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export function getLabFields(signal?: AbortSignal) {
  return apiRequest('/lab/fields', labFieldsSchema, { signal });
}

export interface HistoryFilter {
  server?: string | undefined;
  lesson?: string | undefined;
}

export function getHistory(filter: HistoryFilter, signal?: AbortSignal) {
  const query = new URLSearchParams();
  if (filter.server) query.set('server', filter.server);
  if (filter.lesson) query.set('lesson', filter.lesson);
  const suffix = query.size ? `?${query.toString()}` : '';
  return apiRequest(`/history${suffix}`, z.array(historyEntrySchema), { signal });
}
