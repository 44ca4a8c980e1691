import { ErrorMessage, Loading } from '@/components/loading';
import { formatQps } from '@/lib/format';

import { useCancelRun, useQueue } from '../hooks/use-classroom';
import { isCancellable, queueStatusText, runSubject, type Titles } from '../lib/class-text';

import { ActionError } from './action-error';

interface QueueTableProps {
  classId: string;
  /** The class has not ended: the queue is asked for again every few seconds. */
  live: boolean;
  titles: Titles;
}

/** The class's waiting and running runs, then the newest ended ones; a waiting or running run can be cancelled. */
export function QueueTable({ classId, live, titles }: QueueTableProps) {
  const queue = useQueue(classId, live);
  const cancel = useCancelRun(classId);
  if (queue.isPending) return <Loading label="Loading the queue…" />;
  if (queue.isError) return <ErrorMessage title="The queue could not be loaded." error={queue.error} />;
  if (queue.data.runs.length === 0) return <p data-testid="queue-empty">No runs yet.</p>;
  return (
    <>
      <div className="class-table-wrap">
        <table className="class-table" data-testid="queue">
          <thead>
            <tr>
              <th scope="col">Student</th>
              <th scope="col">Server</th>
              <th scope="col">State</th>
              <th scope="col">Experiment</th>
              <th scope="col" className="class-table__num">QPS</th>
              <th scope="col">
                <span className="class-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {queue.data.runs.map((run) => (
              <tr key={run.id} data-testid="queue-row">
                <th scope="row">{run.owner_name}</th>
                <td>{run.server}</td>
                <td data-testid="queue-state">{queueStatusText(run)}</td>
                <td>{runSubject(run, titles)}</td>
                <td className="class-table__num">{run.qps === null ? '—' : formatQps(run.qps)}</td>
                <td>
                  {isCancellable(run) ? (
                    <button
                      type="button"
                      className="button button--small"
                      onClick={() => {
                        cancel.mutate(run.id);
                      }}
                      disabled={cancel.isPending && cancel.variables === run.id}
                      aria-label={`Cancel ${run.owner_name}’s run on ${run.server}`}
                    >
                      Cancel
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ActionError error={cancel.error} />
    </>
  );
}
