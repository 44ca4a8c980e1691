/**
 * The ```experiment fenced block of a lesson: YAML whose keys are exactly the
 * POST /api/runs body, plus an optional `title` (docs/ARCHITECTURE.md).
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';

const knobValue = z.union([z.string(), z.number(), z.boolean()]);

const serverId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'server must be a catalog id such as c-epoll');

/** The run parameters a series may vary, one value per point (POST /api/sweeps). */
export const VARIED_FIELDS = ['connections', 'idle_connections', 'rate', 'payload_bytes'] as const;
export type VariedField = (typeof VARIED_FIELDS)[number];

export const experimentSchema = z.strictObject({
  title: z.string().trim().min(1).optional(),
  server: serverId.optional(),
  /** A series: several servers (one chart series each), optionally over `vary`'s `values`. */
  servers: z.array(serverId).min(1).max(12).optional(),
  vary: z.enum(VARIED_FIELDS).optional(),
  values: z.array(z.number()).min(1).max(40).optional(),
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

/** The POST /api/runs body: the experiment minus its display title and series keys. */
export type RunRequest = Omit<Experiment, 'title' | 'server' | 'servers' | 'vary' | 'values'> & { server: string };

/**
 * Where a run or series comes from, sent with it so the class board and the CSV can group the
 * class's results: the lesson's slug and the block's key as GET /api/lessons/{slug} lists it.
 */
export interface ExperimentOrigin {
  lesson: string;
  experiment: string;
}

/** The POST /api/sweeps body. */
export interface SweepRequest {
  servers: string[];
  vary: VariedField;
  values: number[];
  base: Omit<RunRequest, 'server'>;
}

export type ExperimentParseResult =
  | { ok: true; kind: 'run'; experiment: Experiment; request: RunRequest; key: string }
  | { ok: true; kind: 'series'; experiment: Experiment; sweep: SweepRequest; key: string }
  | { ok: false; error: string };

/** The shape rules zod cannot say per key: one of server/servers, vary with values. */
function shapeProblem(e: Experiment): string | null {
  if (e.server !== undefined && e.servers !== undefined) return 'has both `server` and `servers`: use one';
  if (e.server === undefined && e.servers === undefined) return 'server is required (a catalog id such as c-epoll)';
  if ((e.vary !== undefined || e.values !== undefined) && e.servers === undefined) {
    return '`vary` and `values` need `servers:` (a list, even of one)';
  }
  if (e.vary !== undefined && e.values === undefined) return '`vary` needs `values`: the list of values to run';
  if (e.values !== undefined && e.vary === undefined) return '`values` needs `vary`: the parameter they set';
  if (e.vary !== undefined && e.vary in e) return `\`${e.vary}\` is set by \`values\`; leave it out`;
  return null;
}

/** A series as the sweep the API runs: without `vary`, one point per server at `connections`. */
export function sweepRequest(e: Experiment): SweepRequest {
  const { title: _t, server: _s, servers, vary, values, ...base } = e;
  if (vary && values) return { servers: servers ?? [], vary, values, base };
  const { connections = 100, ...rest } = base;
  return { servers: servers ?? [], vary: 'connections', values: [connections], base: rest };
}

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
  const problem = shapeProblem(parsed.data);
  if (problem) return { ok: false, error: `The experiment block is invalid: ${problem}.` };
  const experiment = parsed.data;
  const key = experimentKey(experiment);
  if (experiment.servers) return { ok: true, kind: 'series', experiment, sweep: sweepRequest(experiment), key };
  const { title: _title, server, ...rest } = experiment;
  return { ok: true, kind: 'run', experiment, request: { ...rest, server: server ?? '' }, key };
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
