import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import type { Sweep } from '@/lib/api-schemas';

import { describeSweepProgress, sweepProgress, sweepRequestOf } from '../lib/series';
import { versus } from '../lib/words';

import { SeriesFigures } from './series-figures';

import './experiment-widget.css';

/**
 * The series an instructor presents, as a class follows it: its table (sent again as each
 * point finishes) drawn with the series widget's charts and table, in one column at most
 * 420 px wide, with how far it is while it runs.
 */
export function PresentedSweep({ sweep }: { sweep: Sweep }) {
  const { t } = useTranslation('bench');
  const request = useMemo(() => sweepRequestOf(sweep), [sweep]);
  const progress = sweepProgress(sweep.points.length, [], sweep);
  return (
    <section className="experiment presented" aria-label={t('presented.series')} data-testid="presented-sweep">
      <header className="experiment__header">
        <p className="kicker">{t('presented.seriesOf', { servers: versus(request.servers, t) })}</p>
        <p className="run-state" data-testid="series-state" role="status" aria-live="polite">
          {sweep.finished ? t('status.done') : describeSweepProgress(progress, t)}
        </p>
      </header>
      <SeriesFigures sweep={request} points={sweep.points} table={sweep} />
    </section>
  );
}
