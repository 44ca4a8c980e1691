import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useExportAbout } from '@/components/export-about';
import { downloadText, exportFileName } from '@/lib/export';

import type { FlameNode } from '../../lib/flame';
import { flameSvgFile, headerLines } from '../../lib/flame-export';

const FlameGraphView = lazy(() => import('./flame-graph'));

interface FlameFigureProps {
  tree: FlameNode;
  differential?: boolean;
  describe: (name: string, share: number, delta: number | undefined) => string;
  /** The SVG file's name, as `<stem>-<what>.svg`. */
  stem: string;
  what: string;
  /** Said under the result's own header in the SVG file (how to read a difference). */
  reading?: string;
  /** More exports beside the SVG's (a profile's folded stacks). */
  children?: ReactNode;
}

/** A flame graph (loaded with the first one a page shows) and its exports: the drawn SVG, headed
 *  with what the result is, and whatever else the caller offers. */
export function FlameFigure({ tree, differential, describe, stem, what, reading, children }: FlameFigureProps) {
  const { t } = useTranslation('bench');
  const about = useExportAbout();
  const [svg, setSvg] = useState<SVGSVGElement | null>(null);
  const save = (drawn: SVGSVGElement) => {
    const lines = [...headerLines(about, t('profile.root')), ...(reading ? [reading] : [])];
    downloadText(exportFileName(stem, what, 'svg'), flameSvgFile(drawn, lines), 'image/svg+xml');
  };
  return (
    <>
      <Suspense fallback={<p className="profile-panel__loading">{t('profile.loading')}</p>}>
        <FlameGraphView tree={tree} differential={differential} describe={describe} onSvg={setSvg} />
      </Suspense>
      <div className="profile-panel__exports" role="group" aria-label={t('profile.exportLabel')}>
        <button
          type="button"
          className="button button--quiet"
          disabled={!svg}
          onClick={() => {
            if (svg) save(svg);
          }}
        >
          {t('profile.exportSvg')}
        </button>
        {children}
      </div>
    </>
  );
}
