/**
 * The ```experiment fenced block of a lesson: YAML whose keys are exactly the
 * POST /api/runs body, plus an optional `title` (docs/ARCHITECTURE.md).
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';

const knobValue = z.union([z.string(), z.number(), z.boolean()]);

export const experimentSchema = z.strictObject({
  title: z.string().trim().min(1).optional(),
  server: z
    .string({ error: 'server is required (a catalog id such as c-epoll)' })
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'server must be a catalog id such as c-epoll'),
  connections: z.int().positive().optional(),
  payload_bytes: z.int().nonnegative().optional(),
  duration_s: z.number().positive().optional(),
  warmup_s: z.number().nonnegative().optional(),
  protocol: z.enum(['echo', 'http']).optional(),
  knobs: z.record(z.string(), knobValue).optional(),
  rate: z.number().nonnegative().optional(),
  idle_connections: z.int().nonnegative().optional(),
  new_connection_per_request: z.boolean().optional(),
  ramp_s: z.number().nonnegative().optional(),
  repetitions: z.int().positive().optional(),
  profile: z.enum(['throughput', 'syscalls']).optional(),
});

export type Experiment = z.infer<typeof experimentSchema>;

/** The POST /api/runs body: the experiment minus its display title. */
export type RunRequest = Omit<Experiment, 'title'>;

export type ExperimentParseResult =
  | { ok: true; experiment: Experiment; request: RunRequest; key: string }
  | { ok: false; error: string };

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
      }
      const where = issue.path.join('.');
      return where && !issue.message.startsWith(where) ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export function parseExperimentBlock(source: string): ExperimentParseResult {
  if (!source.trim()) {
    return { ok: false, error: 'The experiment block is empty: it needs at least `server: <id>`.' };
  }
  let data: unknown;
  try {
    data = parseYaml(source, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    const detail =
      error instanceof YAMLParseError
        ? error.message.split('\n')[0] ?? error.message
        : error instanceof Error
          ? error.message
          : String(error);
    return { ok: false, error: `The experiment block is not valid YAML: ${detail}` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: 'The experiment block must be a YAML mapping of `key: value` lines.' };
  }
  const parsed = experimentSchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, error: `The experiment block is invalid: ${describeIssues(parsed.error)}.` };
  }
  const { title: _title, ...request } = parsed.data;
  return { ok: true, experiment: parsed.data, request, key: experimentKey(parsed.data) };
}

/** A stable identity for an experiment, used to remember its last run across reloads. */
export function experimentKey(experiment: Experiment): string {
  const sorted = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
  return JSON.stringify(sorted(experiment));
}
