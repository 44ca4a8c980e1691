import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { ExportAboutContext } from '@/components/export-about';
import { Loading } from '@/components/loading';
import { ShareResult } from '@/components/share-result';
import { usePageTitle } from '@/hooks/use-page-title';
import { useServers } from '@/hooks/use-servers';
import type { Run } from '@/lib/api-schemas';

import { getRun } from '@/lib/runs-api';
import { useFollowRun } from '../hooks/use-run';
import { formatWhen } from '../lib/permalink';
import { resultAbout } from '../lib/result-about';

import { ExperimentParams } from './experiment-params';
import { LessonLink, PermalinkProblem, PermalinkSection, ProvenanceList } from './permalink-parts';
import { RunFigures } from './run-figures';
import { RunStateLabel } from './run-state-label';

import './experiment-widget.css';

/**
 * /#/runs/{id}: one run on a page of its own, for whoever may see it (its owner, their class and
 * instructor): what was asked, its charts and table, where it was measured. A queued or running
 * run is followed live; a finished one is replayed from its stored events.
 */
export function RunPermalink({ runId }: { runId: string }) {
  const { t } = useTranslation('bench');
  // One answer per page: another would attach again and replay the stream from its start.
  const run = useQuery({
    queryKey: ['runs', runId, 'permalink'],
    queryFn: ({ signal }) => getRun(runId, signal),
    staleTime: Infinity,
  });
  if (run.isPending) return <Loading label={t('permalink.loadingRun')} />;
  if (run.isError) return <PermalinkProblem what="run" id={runId} error={run.error} />;
  return <RunPage run={run.data} />;
}

function RunPage({ run }: { run: Run }) {
  const { t, i18n } = useTranslation('bench');
  const state = useFollowRun(run);
  const servers = useServers().data ?? [];
  const server = servers.find((s) => s.id === run.server);
  const { request } = run;
  const lesson = request.lesson ?? null;
  const when = formatWhen(run.created_at, i18n.resolvedLanguage);
  const title = t('permalink.runTitle', { server: server?.title ?? run.server });
  usePageTitle(when ? t('permalink.pageTitleWhen', { title, when }) : title);
  const planned = request.duration_s + request.warmup_s;
  const path = `/runs/${encodeURIComponent(run.id)}`;
  const about = resultAbout(
    { title, request, servers: server ? [server] : [], provenance: state.result?.provenance, createdAt: run.created_at, path, legend: [run.server] },
    t,
    i18n.resolvedLanguage,
  );

  return (
    <article className="permalink" data-testid="run-permalink" aria-labelledby="permalink-title">
      <header>
        <p className="kicker">{t('presented.runOf', { server: run.server })}</p>
        <h1 id="permalink-title">{title}</h1>
        <div className="permalink__meta">
          {when ? <time dateTime={run.created_at}>{t('permalink.queuedAt', { when })}</time> : null}
          <RunStateLabel state={state} />
        </div>
        {lesson ? <LessonLink slug={lesson} /> : null}
        <ShareResult to={path} />
      </header>

      <PermalinkSection id="permalink-parameters" title={t('permalink.parameters')}>
        <ExperimentParams request={request} servers={server ? [server] : []} />
      </PermalinkSection>

      <PermalinkSection id="permalink-result" title={t('permalink.result')}>
        {state.phase === 'queued' || state.phase === 'starting' ? (
          <p className="permalink__muted">{t('permalink.followsLive')}</p>
        ) : null}
        <ExportAboutContext value={about}>
          <RunFigures state={state} plannedS={planned} warmupS={request.warmup_s} />
        </ExportAboutContext>
      </PermalinkSection>

      <PermalinkSection id="permalink-provenance" title={t('permalink.provenance')}>
        <ProvenanceList
          provenance={state.result?.provenance}
          pending={
            state.phase === 'failed' || state.phase === 'cancelled' ? t('permalink.runNotMeasured') : t('permalink.runPending')
          }
        />
      </PermalinkSection>
    </article>
  );
}
