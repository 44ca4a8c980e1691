import { useQueries } from '@tanstack/react-query';
import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Stacks, SweepPoint } from '@/lib/api-schemas';
import { formatPercent } from '@/lib/format';
import { getRun } from '@/lib/runs-api';

import type { SweepRequest } from '../../lib/experiment-block';
import { differentialTree, frameName, functionChanges, SHARE_UNITS } from '../../lib/flame';
import { pointName } from '../../lib/series';
import { FlameFigure } from './flame-figure';
import { SharesBar } from './shares-bar';

import './profile.css';

// The functions the comparison lists by their change of share.
const LISTED_FUNCTIONS = 12;
// What the difference's SVG file is named after the series: `<stem>-differential-flame-graph.svg`.
const DIFFERENCE_FILE = 'differential-flame-graph';

interface ProfileComparisonProps {
  sweep: SweepRequest;
  points: SweepPoint[];
  /** What exported files are named after: the series. */
  stem: string;
  /** A recording's profiles by run id, used instead of asking for runs no store holds. */
  recorded?: Record<string, Stacks> | null | undefined;
}

/** The pair first shown: two servers at the same value (the lab's comparison, a lesson's
 *  pair), else the first two points. Indexes into `done`. */
function firstPair(done: SweepPoint[]): [number, number] {
  for (let i = 0; i < done.length; i += 1) {
    const j = done.findIndex((p, k) => k > i && p.value === done[i]?.value && p.server !== done[i]?.server);
    if (j > 0) return [i, j];
  }
  return [0, 1];
}

function formatChange(share: number): string {
  const sign = share > 0 ? '+' : share < 0 ? '−' : '±';
  return `${sign}${formatPercent(Math.abs(share) * 100)}`;
}

/**
 * Where the time moved between two points of a profiled series (the lab's comparison, an edit
 * against its original, a lesson's pair): each one's shares, and a differential flame graph
 * of the second against the first (red: a larger share of its time, blue: a smaller one).
 * Shares of each run's own total, so runs of different speeds compare fairly.
 */
export function ProfileComparison({ sweep, points, stem, recorded }: ProfileComparisonProps) {
  const { t } = useTranslation('bench');
  const ids = useId();
  const done = useMemo(() => points.filter((p) => p.status === 'done' && p.run_id != null), [points]);
  const [pair, setPair] = useState<[number, number] | null>(null);
  const [first, second] = pair ?? firstPair(done);
  const chosen = [done[first], done[second]];
  const kept = chosen.map((point) => (point?.run_id != null ? (recorded?.[point.run_id] ?? null) : null));
  const runs = useQueries({
    queries: chosen.map((point, i) => ({
      queryKey: ['run', point?.run_id],
      queryFn: ({ signal }: { signal: AbortSignal }) => getRun(point?.run_id ?? '', signal),
      enabled: point?.run_id != null && kept[i] === null,
      staleTime: Infinity,
    })),
  });
  const [before, after] = runs.map((r, i) => kept[i] ?? r.data?.result?.stacks ?? null) as [Stacks | null, Stacks | null];
  const [nameA, nameB] = chosen.map((p) => (p ? pointName(p, sweep, t) : ''));
  const tree = useMemo(
    () => (before && after && !before.refused && !after.refused ? differentialTree(before.stacks, after.stacks, t('profile.root')) : null),
    [before, after, t],
  );
  const changes = useMemo(
    () => (before && after && !before.refused && !after.refused ? functionChanges(before.stacks, after.stacks, LISTED_FUNCTIONS) : []),
    [before, after],
  );
  const describe = useCallback(
    (name: string, share: number, delta: number | undefined) =>
      t('profile.frameChange', { name, share: formatPercent(share * 100), change: formatChange((delta ?? 0) / SHARE_UNITS), a: nameA }),
    [t, nameA],
  );
  if (done.length < 2) return null;

  const choose = (which: 0 | 1, index: number) => {
    setPair(which === 0 ? [index, second] : [first, index]);
  };
  const picker = (which: 0 | 1) => (
    <span className="inline-field">
      <label htmlFor={`${ids}-${which}`}>{t(which === 0 ? 'profile.compareA' : 'profile.compareB')}</label>
      <select
        id={`${ids}-${which}`}
        value={which === 0 ? first : second}
        onChange={(event) => {
          choose(which, Number(event.target.value));
        }}
      >
        {done.map((point, index) => (
          <option key={point.run_id} value={index}>
            {pointName(point, sweep, t)}
          </option>
        ))}
      </select>
    </span>
  );
  const refused = [before, after].find((s) => s?.refused);
  // Both read, and one has no profile (a run recorded before profiles, or not profiled).
  const missing = runs.every((r, i) => kept[i] !== null || !r.isPending) && (!before || !after);

  return (
    <section className="profile-panel" data-testid="profile-comparison">
      <h3>{t('profile.compareHeading')}</h3>
      <div className="profile-panel__pickers">
        {picker(0)}
        {picker(1)}
        <button
          type="button"
          className="button button--quiet"
          onClick={() => {
            setPair([second, first]);
          }}
        >
          {t('profile.swap')}
        </button>
      </div>
      {before?.shares && after?.shares ? (
        <div className="profile-panel__pair">
          <div>
            <h4>{nameA}</h4>
            <SharesBar shares={before.shares} />
          </div>
          <div>
            <h4>{nameB}</h4>
            <SharesBar shares={after.shares} />
          </div>
        </div>
      ) : null}
      {refused?.refused ? <p className="profile-panel__refused">{t('profile.refused', { reason: refused.refused })}</p> : null}
      {tree ? (
        <>
          <p className="profile-panel__note">{t('profile.readDifference', { a: nameA, b: nameB })}</p>
          <FlameFigure
            tree={tree}
            differential
            describe={describe}
            stem={stem}
            what={DIFFERENCE_FILE}
            reading={t('profile.readDifference', { a: nameA, b: nameB })}
          />
          <table className="profile-panel__changes" data-testid="profile-changes">
            <caption>{t('profile.changesCaption', { count: changes.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('profile.function')}</th>
                <th scope="col">{nameA}</th>
                <th scope="col">{nameB}</th>
                <th scope="col">{t('profile.change')}</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((change) => {
                const frame = frameName(change.name);
                return (
                  <tr key={change.name}>
                    <th scope="row">
                      <code>{frame.name}</code>
                      {frame.kernel ? ` ${t('profile.kernelMark')}` : ''}
                    </th>
                    <td>{formatPercent(change.before * 100)}</td>
                    <td>{formatPercent(change.after * 100)}</td>
                    <td>{formatChange(change.change)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      ) : missing ? (
        <p className="profile-panel__note">{t('profile.missing')}</p>
      ) : !refused ? (
        <p className="profile-panel__loading">{t('profile.loading')}</p>
      ) : null}
    </section>
  );
}
