import { ErrorMessage, Loading } from '@/components/loading';
import { useHealth } from '@/hooks/use-health';
import type { RunnerHealth } from '@/lib/api-schemas';

import { useQueue } from '../hooks/use-classroom';
import type { QueuedRun } from '../lib/classroom-schemas';

interface RunnersTableProps {
  classId: string;
  live: boolean;
}

/** What a runner is doing, in the words of this class: whose run, or another class's. */
function doing(runner: RunnerHealth, ours: Map<string, QueuedRun>): string {
  if (runner.state === 'lost') return `lost: silent for ${Math.round(runner.heartbeat_age_s)} s`;
  if (runner.state === 'stopped') return 'stopped';
  if (!runner.ready) return `not ready: ${runner.reason ?? 'no reason given'}`;
  if (runner.state === 'idle' || runner.run_id === null) return 'idle';
  const run = ours.get(runner.run_id);
  return run ? `running ${run.owner_name}’s ${run.server}` : 'running another class’s run';
}

/**
 * The benchmark hosts serving the course: each runner's host, the CPUs it pins, its state and
 * whose run it is running. Runners on one host pinned to the same CPUs disturb each other's
 * figures, and their runs say so; the table says it first.
 */
export function RunnersTable({ classId, live }: RunnersTableProps) {
  const health = useHealth();
  const queue = useQueue(classId, live);
  if (health.isPending) return <Loading label="Loading the runners…" />;
  if (health.isError) return <ErrorMessage title="The runners could not be loaded." error={health.error} />;
  const runners = health.data.runners;
  if (runners.length === 0) {
    return <p data-testid="runners-none">No runner has started yet: queued runs wait for one.</p>;
  }
  const ours = new Map((queue.data?.runs ?? []).map((run) => [run.id, run]));
  return (
    <div className="class-table-wrap">
      <table className="class-table" data-testid="runners">
        <thead>
          <tr>
            <th scope="col">Runner</th>
            <th scope="col">Host</th>
            <th scope="col">CPUs (server · load)</th>
            <th scope="col">Doing</th>
            <th scope="col">Shares CPUs with</th>
          </tr>
        </thead>
        <tbody>
          {runners.map((runner) => (
            <tr key={runner.id} data-testid="runner-row">
              <th scope="row">{runner.id}</th>
              <td>{runner.host}</td>
              <td>
                {runner.server_cpus} · {runner.loadgen_cpus}
              </td>
              <td>{doing(runner, ours)}</td>
              <td>{runner.shares_cpus_with.length > 0 ? runner.shares_cpus_with.join(', ') : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
