import { useTranslation } from 'react-i18next';

import { ErrorMessage, Loading } from '@/components/loading';
import { useHealth } from '@/hooks/use-health';
import type { RunnerHealth } from '@/lib/api-schemas';
import { formatPercent } from '@/lib/format';

import { useQueue } from '../hooks/use-classroom';
import type { ClassroomT } from '../lib/class-text';
import type { QueuedRun } from '../lib/classroom-schemas';

import { ClassTable } from './class-table';

interface RunnersTableProps {
  classId: string;
  live: boolean;
}

/** What a runner is doing, in the words of this class: whose run, or another class's. */
function doing(runner: RunnerHealth, ours: Map<string, QueuedRun>, t: ClassroomT): string {
  if (runner.state === 'lost') return t('runners.lost', { seconds: Math.round(runner.heartbeat_age_s) });
  if (runner.state === 'stopped') return t('runners.stopped');
  // The reason is the runner's own sentence, shown as it came.
  if (!runner.ready) return t('runners.notReady', { reason: runner.reason ?? t('runners.noReason') });
  if (runner.state === 'idle' || runner.run_id === null) return t('runners.idle');
  const run = ours.get(runner.run_id);
  return run ? t('runners.runningOurs', { name: run.owner_name, server: run.server }) : t('runners.runningOther');
}

/** How far identical runs scatter on this runner's host, as it last measured it. */
function noiseOf(runner: RunnerHealth, t: ClassroomT): string {
  if (!runner.noise) return t('runners.noiseUnknown');
  return t('runners.noise', { sigma: formatPercent(runner.noise.sigma * 100), count: runner.noise.runs });
}

/**
 * The benchmark hosts serving the course: each runner's host, the CPUs it pins, its state and
 * whose run it is running. Runners on one host pinned to the same CPUs disturb each other's
 * figures, and their runs say so; the table says it first. Each host's own run-to-run spread
 * says how far apart two single runs there must be to differ.
 */
export function RunnersTable({ classId, live }: RunnersTableProps) {
  const { t } = useTranslation('classroom');
  const health = useHealth();
  const queue = useQueue(classId, live);
  if (health.isPending) return <Loading label={t('runners.loading')} />;
  if (health.isError) return <ErrorMessage title={t('runners.loadError')} error={health.error} />;
  const runners = health.data.runners;
  if (runners.length === 0) {
    return <p data-testid="runners-none">{t('runners.none')}</p>;
  }
  const ours = new Map((queue.data?.runs ?? []).map((run) => [run.id, run]));
  return (
    <ClassTable
      testId="runners"
      columns={[
        { label: t('runners.runner') },
        { label: t('runners.host') },
        { label: t('runners.cpus') },
        { label: t('runners.doing') },
        { label: t('runners.shares') },
        { label: t('runners.noiseColumn') },
      ]}
    >
      {runners.map((runner) => (
        <tr key={runner.id} data-testid="runner-row">
          <th scope="row">{runner.id}</th>
          <td>{runner.host}</td>
          <td>
            {runner.server_cpus} · {runner.loadgen_cpus}
          </td>
          <td>{doing(runner, ours, t)}</td>
          <td>{runner.shares_cpus_with.length > 0 ? runner.shares_cpus_with.join(', ') : '—'}</td>
          <td data-testid="runner-noise">{noiseOf(runner, t)}</td>
        </tr>
      ))}
    </ClassTable>
  );
}
