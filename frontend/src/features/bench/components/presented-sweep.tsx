import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { ExportAboutContext } from '@/components/export-about';
import { ShareResult } from '@/components/share-result';
import { useServers } from '@/hooks/use-servers';
import type { Sweep } from '@/lib/api-schemas';

import { useRunProvenance } from '../hooks/use-run-provenance';
import { resultAbout } from '../lib/result-about';
import { describeSweepProgress, sweepProgress, sweepRequestOf } from '../lib/series';
import { versus } from '../lib/words';

import { SeriesFigures } from './series-figures';

import './experiment-widget.css';

interface PresentedSweepProps {
  sweep: Sweep;
  /** What it is presented as (the block's title, or the instructor's): its exports' title. */
  title: string;
}

/**
 * The series an instructor presents, as a class follows it: its table (sent again as each
 * point finishes) drawn with the series widget's charts and table, in one column at most
 * 420 px wide, with how far it is while it runs. Shared by its permalink, and its exports say
 * what it is, as the series widget's do.
 */
export function PresentedSweep({ sweep, title }: PresentedSweepProps) {
  const { t, i18n } = useTranslation('bench');
  const request = useMemo(() => sweepRequestOf(sweep), [sweep]);
  const progress = sweepProgress(sweep.points.length, [], sweep);
  const catalog = useServers().data;
  // Where its first measured point ran stands for the series: its points share one queue.
  const measured = sweep.points.find((p) => p.status === 'done' && p.run_id !== null)?.run_id ?? null;
  const { provenance } = useRunProvenance(measured);
  const path = `/sweeps/${encodeURIComponent(sweep.id)}`;
  const about = useMemo(() => {
    const known = (catalog ?? []).filter((s) => request.servers.includes(s.id));
    const facts = { title, request: sweep.request, servers: known, provenance, createdAt: sweep.created_at, path, legend: request.servers };
    return resultAbout(facts, t, i18n.resolvedLanguage);
  }, [catalog, request.servers, title, sweep.request, provenance, sweep.created_at, path, t, i18n.resolvedLanguage]);
  return (
    <section className="experiment presented" aria-label={t('presented.series')} data-testid="presented-sweep">
      <header className="experiment__header">
        <p className="kicker">{t('presented.seriesOf', { servers: versus(request.servers, t) })}</p>
        <p className="run-state" data-testid="series-state" role="status" aria-live="polite">
          {sweep.finished ? t('status.done') : describeSweepProgress(progress, t)}
        </p>
      </header>
      <ShareResult to={path} />
      <ExportAboutContext value={about}>
        <SeriesFigures sweep={request} points={sweep.points} table={sweep} />
      </ExportAboutContext>
    </section>
  );
}
