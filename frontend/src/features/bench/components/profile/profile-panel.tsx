import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import type { Stacks } from '@/lib/api-schemas';
import { downloadText, exportFileName } from '@/lib/export';
import { formatCalls, formatPercent } from '@/lib/format';

import { flameTree, foldedText } from '../../lib/flame';
import { FlameFigure } from './flame-figure';
import { SharesBar } from './shares-bar';

import './profile.css';

interface ProfilePanelProps {
  stacks: Stacks;
  /** What exported files are named after: the server's id. */
  stem: string;
}

/**
 * A profiled run's "where the time went": for a cpu profile the shares of the server's CPU time
 * (user, system calls, softirq, other kernel, idle) and the on-CPU flame graph; for an offcpu
 * profile the time its threads spent blocked or waiting for a CPU, its context switches per
 * request, and the off-CPU flame graph. Where the host would not profile, why.
 */
export function ProfilePanel({ stacks, stem }: ProfilePanelProps) {
  const { t } = useTranslation('bench');
  const tree = useMemo(() => flameTree(stacks.stacks, t('profile.root')), [stacks.stacks, t]);
  const cpu = stacks.mode === 'cpu';
  const describe = useCallback(
    (name: string, share: number) =>
      cpu
        ? t('profile.frameCpu', { name, share: formatPercent(share * 100), count: Math.round(share * stacks.total) })
        : t('profile.frameOffCpu', { name, share: formatPercent(share * 100), seconds: ((share * stacks.total) / 1e6).toFixed(3) }),
    [cpu, stacks.total, t],
  );

  const heading = <h3>{t(cpu ? 'profile.headingCpu' : 'profile.headingOffCpu')}</h3>;
  if (stacks.refused != null) {
    return (
      <section className="profile-panel" data-testid="profile-panel">
        {heading}
        <p className="profile-panel__refused" data-testid="profile-refused">
          {t('profile.refused', { reason: stacks.refused })}
        </p>
      </section>
    );
  }
  const offcpu = stacks.offcpu;
  return (
    <section className="profile-panel" data-testid="profile-panel">
      {heading}
      {stacks.shares ? <SharesBar shares={stacks.shares} /> : null}
      {offcpu ? (
        <p data-testid="profile-offcpu">
          {t('profile.offCpuTotals', {
            blocked: offcpu.blocked_s.toFixed(2),
            runnable: offcpu.runnable_s.toFixed(2),
            switches: offcpu.switches_per_request == null ? '—' : formatCalls(offcpu.switches_per_request),
          })}
        </p>
      ) : null}
      <p className="profile-panel__note">{t(cpu ? 'profile.readCpu' : 'profile.readOffCpu')}</p>
      <p className="profile-panel__note">{t('profile.costNote')}</p>
      <FlameFigure tree={tree} describe={describe} stem={stem} what={`${stacks.mode}-flame-graph`}>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => {
            downloadText(exportFileName(stem, `${stacks.mode}-stacks`, 'folded'), foldedText(stacks.stacks), 'text/plain');
          }}
        >
          {t('profile.exportFolded')}
        </button>
      </FlameFigure>
    </section>
  );
}
