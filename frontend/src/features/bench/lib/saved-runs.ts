/**
 * Remembers the last run of each experiment in localStorage, so a reload (or a
 * projector hiccup) re-attaches to the run and replays its events.
 */
import { z } from 'zod';

import { readStored, writeStored } from '@/lib/storage';

const KEY = 'c10klab:runs:v1';
const MAX_ENTRIES = 100;

const savedRunsSchema = z.object({
  version: z.literal(1),
  runs: z.array(z.object({ experiment: z.string(), runId: z.string().min(1) })),
});
type SavedRuns = z.infer<typeof savedRunsSchema>;

const empty: SavedRuns = { version: 1, runs: [] };

export function loadSavedRunId(experiment: string): string | null {
  return readStored(KEY, savedRunsSchema, empty).runs.find((r) => r.experiment === experiment)?.runId ?? null;
}

export function saveRunId(experiment: string, runId: string): void {
  const saved = readStored(KEY, savedRunsSchema, empty);
  const runs = [...saved.runs.filter((r) => r.experiment !== experiment), { experiment, runId }];
  writeStored(KEY, { version: 1, runs: runs.slice(-MAX_ENTRIES) });
}

export function forgetRunId(experiment: string): void {
  const saved = readStored(KEY, savedRunsSchema, empty);
  writeStored(KEY, { version: 1, runs: saved.runs.filter((r) => r.experiment !== experiment) });
}
