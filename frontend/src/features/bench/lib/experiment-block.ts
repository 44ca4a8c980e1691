/**
 * A lesson's ```experiment block, as the widgets run it. The backend alone reads a block's YAML
 * (backend/c10klab/content/experiments.py, shared with the content checker and the baseline
 * recorder): GET /api/lessons/{slug} lists each block with the request it stands for, a run's
 * (POST /api/runs) or a series' (POST /api/sweeps), or why it is neither. The widgets post that
 * request as it is; the lab builds the same requests from its form.
 */
export type { RunRequest, SweepRequest, VariedField } from '@/lib/api-schemas';

/**
 * Where a run or series comes from, sent with it so the class board and the CSV can group the
 * class's results: the lesson's slug and the block's key as GET /api/lessons/{slug} lists it.
 */
export interface ExperimentOrigin {
  lesson: string;
  experiment: string;
}
