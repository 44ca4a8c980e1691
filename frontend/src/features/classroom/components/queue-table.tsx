import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import { ErrorMessage, Loading } from '@/components/loading';
import { formatQps } from '@/lib/format';

import { useCancelRun, useQueue } from '../hooks/use-classroom';
import { isCancellable, queueStatusText, runSubject, type Titles } from '../lib/class-text';

import { ClassTable } from './class-table';

interface QueueTableProps {
  classId: string;
  /** The class has not ended: the queue is asked for again every few seconds. */
  live: boolean;
  titles: Titles;
}

/** The class's waiting and running runs, then the newest ended ones; a waiting or running run can be cancelled. */
export function QueueTable({ classId, live, titles }: QueueTableProps) {
  const { t } = useTranslation('classroom');
  const queue = useQueue(classId, live);
  const cancel = useCancelRun(classId);
  if (queue.isPending) return <Loading label={t('queue.loading')} />;
  if (queue.isError) return <ErrorMessage title={t('queue.loadError')} error={queue.error} />;
  if (queue.data.runs.length === 0) return <p data-testid="queue-empty">{t('queue.empty')}</p>;
  return (
    <>
      <ClassTable
        testId="queue"
        columns={[
          { label: t('table.student') },
          { label: t('table.server') },
          { label: t('queue.state') },
          { label: t('queue.experiment') },
          { label: t('table.qps'), numeric: true },
        ]}
        actions
      >
        {queue.data.runs.map((run) => (
          <tr key={run.id} data-testid="queue-row">
            <th scope="row">{run.owner_name}</th>
            <td>{run.server}</td>
            <td data-testid="queue-state">{queueStatusText(run, t)}</td>
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
                  aria-label={t('queue.cancelLabel', { name: run.owner_name, server: run.server })}
                >
                  {t('queue.cancel')}
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </ClassTable>
      <ActionError error={cancel.error} />
    </>
  );
}
