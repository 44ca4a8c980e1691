import { useTranslation } from 'react-i18next';

import { formatQps } from '@/lib/format';

import type { MeasureNews, MeasurePoint } from '../lib/check-state';

const WIDTH = 240;
const HEIGHT = 48;
const PAD = 3;

/** The points of an SVG polyline drawing QPS over time, from 0 to the highest interval. */
function qpsLine(points: readonly MeasurePoint[], width = WIDTH, height = HEIGHT): string {
  if (points.length === 0) return '';
  const first = points[0]?.t_s ?? 0;
  const span = Math.max((points.at(-1)?.t_s ?? first) - first, 1e-9);
  const top = Math.max(...points.map((p) => p.qps), 1e-9);
  return points
    .map((p) => {
      const x = points.length === 1 ? width / 2 : PAD + ((p.t_s - first) / span) * (width - 2 * PAD);
      const y = height - PAD - (p.qps / top) * (height - 2 * PAD);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/**
 * The measured part of an exercise's run as it goes: warming up, or a small line of its
 * requests per second (the status line above says the figures in words, as they come).
 */
export function MeasureProgress({ measure }: { measure: MeasureNews }) {
  const { t } = useTranslation('edit');
  const { points } = measure;
  const peak = points.length ? Math.max(...points.map((p) => p.qps)) : null;
  const last = points.at(-1);
  return (
    <figure className="measure-progress" data-testid="measure-progress" data-phase={measure.phase} data-points={points.length}>
      {points.length ? (
        <svg
          className="measure-progress__line"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width={WIDTH}
          height={HEIGHT}
          role="img"
          aria-label={t('measure.lineLabel', {
            intervals: points.length,
            last: formatQps(last?.qps ?? 0),
            peak: formatQps(peak ?? 0),
          })}
        >
          <polyline points={qpsLine(points)} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
      ) : null}
      <figcaption className="edit__muted">
        {measure.phase === 'warmup'
          ? t('measure.warmingUp')
          : peak !== null
            ? t('measure.captionPeak', { peak: formatQps(peak) })
            : t('measure.caption')}
      </figcaption>
    </figure>
  );
}
