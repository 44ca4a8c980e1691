import { useTranslation } from 'react-i18next';

import type { CpuShares } from '@/lib/api-schemas';

import { formatPercent } from '@/lib/format';

const KINDS = ['user', 'syscalls', 'softirq', 'other_kernel', 'idle', 'other_work'] as const;

/**
 * Where the server's CPUs' time went in a cpu profile, as one stacked bar with each share
 * written in its legend: the server's code, the kernel in its system calls, the network's
 * softirq, other kernel work, idle, and work not the server's. On loopback softirq is the TCP
 * stack of both ends, which is why few calls can save so little.
 */
export function SharesBar({ shares }: { shares: CpuShares }) {
  const { t } = useTranslation('bench');
  return (
    <figure className="shares-bar" data-testid="profile-shares">
      <div className="shares-bar__bar" role="img" aria-label={KINDS.map((k) => `${t(`profile.share.${k}`)} ${formatPercent(shares[k] * 100)}`).join(', ')}>
        {KINDS.map((kind) => (
          <span key={kind} className={`shares-bar__part shares-bar__part--${kind}`} style={{ width: `${shares[kind] * 100}%` }} />
        ))}
      </div>
      <figcaption>
        <ul className="shares-bar__legend">
          {KINDS.map((kind) => (
            <li key={kind}>
              <span className={`shares-bar__swatch shares-bar__part--${kind}`} aria-hidden="true" />
              {t(`profile.share.${kind}`)} <strong>{formatPercent(shares[kind] * 100)}</strong>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
