import { use, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ProseMarkdown } from '@/components/prose-markdown';

import { glossaryEntry, GlossaryMarkdownContext } from '../lib/glossary-entry';

/** A pointer resting this long on a term opens its preview; leaving it closes after a grace
 *  period in which the pointer may reach the preview itself. */
const OPEN_DELAY_MS = 250;
const CLOSE_DELAY_MS = 200;
/** The preview's width, and how close it may come to the window's edges. */
const WIDTH_PX = 360;
const MARGIN_PX = 8;

interface Place {
  top: number;
  left: number;
  width: number;
}

/** Under the term, in the page's coordinates, kept inside the window's width. */
function placeUnder(link: HTMLElement): Place {
  const rect = link.getBoundingClientRect();
  const width = Math.min(WIDTH_PX, window.innerWidth - 2 * MARGIN_PX);
  const left = Math.min(Math.max(MARGIN_PX, rect.left), window.innerWidth - width - MARGIN_PX);
  return { top: rect.bottom + window.scrollY + 6, left: left + window.scrollX, width };
}

/**
 * A glossary term linked from a lesson's prose, with its entry previewed in place (as MDN
 * previews a term): on a pointer's rest or the keyboard's focus, or on a first tap on a touch
 * screen (a second tap, or "Open in the glossary", goes there). The link itself still leads to
 * the glossary, so nothing is lost without the preview.
 */
export function GlossaryTermLink({ anchor, className, children }: { anchor: string; className?: string; children?: ReactNode }) {
  const { t } = useTranslation('lessons');
  const glossary = use(GlossaryMarkdownContext);
  const entry = useMemo(() => (glossary === null ? null : glossaryEntry(glossary, anchor)), [glossary, anchor]);
  const link = useRef<HTMLAnchorElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const touched = useRef(false);
  const [place, setPlace] = useState<Place | null>(null);
  const id = useId();
  const to = `/glossary#${encodeURIComponent(anchor)}`;

  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
    },
    [],
  );
  const open = (delay: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      if (link.current) setPlace(placeUnder(link.current));
    }, delay);
  };
  const close = (delay: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      setPlace(null);
    }, delay);
  };
  const shown = place !== null && entry !== null;

  return (
    <>
      <Link
        ref={link}
        to={to}
        className={className}
        aria-describedby={shown ? id : undefined}
        onPointerDown={(event) => {
          touched.current = event.pointerType === 'touch';
        }}
        onPointerEnter={(event) => {
          if (event.pointerType === 'mouse') open(OPEN_DELAY_MS);
        }}
        onPointerLeave={(event) => {
          if (event.pointerType === 'mouse') close(CLOSE_DELAY_MS);
        }}
        onFocus={() => {
          open(0);
        }}
        onBlur={() => {
          close(CLOSE_DELAY_MS);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') close(0);
        }}
        onClick={(event) => {
          // A touch screen has no hover: the first tap shows the entry, a second goes to it.
          if (touched.current && !shown && entry !== null) {
            event.preventDefault();
            open(0);
          }
        }}
      >
        {children}
      </Link>
      {shown
        ? createPortal(
            <div
              id={id}
              role="tooltip"
              className="glossary-preview"
              data-testid="glossary-preview"
              style={{ top: place.top, left: place.left, width: place.width }}
              onPointerEnter={() => {
                window.clearTimeout(timer.current);
              }}
              onPointerLeave={() => {
                close(CLOSE_DELAY_MS);
              }}
            >
              <p className="glossary-preview__term">{entry.term}</p>
              <ProseMarkdown markdown={entry.body} className="prose glossary-preview__body" />
              <Link to={to} className="glossary-preview__more">
                {t('glossary.open')}
              </Link>
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
