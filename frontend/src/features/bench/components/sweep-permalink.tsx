import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ExportAboutContext } from '@/components/export-about';
import { Loading } from '@/components/loading';
import { ShareResult } from '@/components/share-result';
import { usePageTitle } from '@/hooks/use-page-title';
import { useServers } from '@/hooks/use-servers';
import type { Sweep } from '@/lib/api-schemas';
import { formatInt } from '@/lib/format';

import { getSweep } from '../api/sweeps';
import { useRunProvenance } from '../hooks/use-run-provenance';
import { useFollowSweep, useNextPoint } from '../hooks/use-sweep';
import { formatWhen } from '../lib/permalink';
import { resultAbout } from '../lib/result-about';
import { entryLabel, isRoundComparison } from '../lib/round-comparison';
import { describeRunningSeries, runningMark, sweepRequestOf } from '../lib/series';
import { statusWord, variedName, versus } from '../lib/words';

import { ExperimentParams } from './experiment-params';
import { LessonLink, PermalinkProblem, PermalinkSection, ProvenanceList } from './permalink-parts';
import { RoundComparison } from './round-comparison';
import { SeriesFigures } from './series-figures';

import './experiment-widget.css';

/**
 * /#/sweeps/{id}: one series on a page of its own, for whoever may see it: what was asked, its
 * charts and table, a link to each point's run, and where its first point was measured. One
 * still running is followed live, as the series widget follows it.
 */
export function SweepPermalink({ sweepId }: { sweepId: string }) {
  const { t } = useTranslation('bench');
  // One answer per page: the stream brings the rest.
  const sweep = useQuery({
    queryKey: ['sweeps', sweepId, 'permalink'],
    queryFn: ({ signal }) => getSweep(sweepId, signal),
    staleTime: Infinity,
  });
  if (sweep.isPending) return <Loading label={t('permalink.loadingSeries')} />;
  if (sweep.isError) return <PermalinkProblem what="series" id={sweepId} error={sweep.error} />;
  return <SweepPage sweep={sweep.data} />;
}

/** The provenance of the series' first measured point: its runs share the runner's queue, and
 *  each point's own record is one link away. */
function FirstPointProvenance({ runId }: { runId: string | null }) {
  const { t } = useTranslation('bench');
  const { provenance } = useRunProvenance(runId);
  return (
    <>
      {runId ? <p className="permalink__muted">{t('permalink.firstPoint')}</p> : null}
      <ProvenanceList provenance={provenance} pending={runId ? t('permalink.loading') : t('permalink.seriesPending')} />
    </>
  );
}

function SweepPage({ sweep }: { sweep: Sweep }) {
  const { t, i18n } = useTranslation('bench');
  const state = useFollowSweep(sweep);
  const table = state.table ?? sweep;
  const request = useMemo(() => sweepRequestOf(table), [table]);
  const catalog = useServers().data;
  const known = useMemo(() => (catalog ?? []).filter((s) => request.servers.includes(s.id)), [catalog, request.servers]);
  const when = formatWhen(sweep.created_at, i18n.resolvedLanguage);
  // A comparison in rounds (an edited server against its original): medians and their spread.
  const rounds = isRoundComparison(request);
  const servered = versus(request.servers, t);
  const title = rounds
    ? t('permalink.roundsTitle', {
        entries: versus(request.servers.map((s) => entryLabel(s, request.servers, t)), t),
        count: request.values.length,
        rounds: formatInt(request.values.length),
      })
    : request.values.length > 1
      ? t('series.titleBy', { servers: servered, field: variedName(request.vary, t) })
      : servered;
  const pageTitle = t('permalink.seriesPageTitle', { title });
  usePageTitle(when ? t('permalink.pageTitleWhen', { title: pageTitle, when }) : pageTitle);
  // Until the stream is open (the first render), the table says whether it still runs.
  const running = state.phase === 'running' || (state.phase === 'idle' && !sweep.finished);
  const points = running ? state.points : table.points;
  const next = useNextPoint(state);
  const status =
    running
      ? describeRunningSeries(request, state.points, state.table, next, t)
      : statusWord(table.points.some((p) => p.status === 'cancelled') ? 'cancelled' : 'done', t);
  const firstRun = table.points.find((p) => p.status === 'done' && p.run_id !== null)?.run_id ?? null;
  const runs = table.points.filter((p) => p.run_id !== null);
  const path = `/sweeps/${encodeURIComponent(sweep.id)}`;
  const { provenance } = useRunProvenance(firstRun);
  const legend = rounds ? request.servers.map((s) => entryLabel(s, request.servers, t)) : request.servers;
  const about = resultAbout(
    { title, request: sweep.request, servers: known, provenance, createdAt: sweep.created_at, path, legend },
    t,
    i18n.resolvedLanguage,
  );

  return (
    <article className="permalink" data-testid="sweep-permalink" aria-labelledby="permalink-title">
      <header>
        <p className="kicker">
          {t('permalink.seriesKicker', { count: table.points.length, points: formatInt(table.points.length) })}
        </p>
        <h1 id="permalink-title">{title}</h1>
        <div className="permalink__meta">
          {when ? <time dateTime={sweep.created_at}>{t('permalink.queuedAt', { when })}</time> : null}
          <p className="run-state" data-testid="series-state" role="status" aria-live="polite">
            {status}
          </p>
        </div>
        {sweep.request.lesson ? <LessonLink slug={sweep.request.lesson} /> : null}
        <ShareResult to={path} />
      </header>

      <PermalinkSection id="permalink-parameters" title={t('permalink.parameters')}>
        <ExperimentParams request={sweep.request} servers={known} />
      </PermalinkSection>

      <PermalinkSection id="permalink-result" title={t('permalink.result')}>
        <ExportAboutContext value={about}>
        {rounds ? (
          <RoundComparison
            sweep={request}
            points={points}
            entries={table.entries}
            verdicts={table.verdicts}
            finished={!running && table.finished}
            stem={table.id}
          />
        ) : (
          <SeriesFigures sweep={request} points={points} table={table} running={next ? runningMark(next.point, next.run) : null} />
        )}
        </ExportAboutContext>
        {runs.length ? (
          <>
            <h3 className="permalink__muted">{t('permalink.eachRun')}</h3>
            <ul className="permalink__runs" data-testid="sweep-runs">
              {runs.map((p) => (
                <li key={`${p.server}@${p.value}`}>
                  <Link to={`/runs/${encodeURIComponent(p.run_id ?? '')}`}>
                    {rounds
                      ? t('permalink.roundRun', { entry: entryLabel(p.server, request.servers, t), round: formatInt(p.value) })
                      : t('permalink.pointRun', { server: p.server, value: formatInt(p.value) })}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </PermalinkSection>

      <PermalinkSection id="permalink-provenance" title={t('permalink.provenance')}>
        <FirstPointProvenance runId={firstRun} />
      </PermalinkSection>
    </article>
  );
}
