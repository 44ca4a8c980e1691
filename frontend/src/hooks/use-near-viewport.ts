import { useCallback, useState, type RefCallback } from 'react';

/**
 * "Near" is in view: a diagram or widget starts loading as it scrolls in. Any margin below
 * the fold would pull Mermaid (~200 kB gzipped) into the first load of every lesson whose
 * first diagram sits just under the first screen; Mermaid is cached for good once fetched
 * (immutable assets), so the reader waits for it once, not once per diagram.
 */
export const NEAR_VIEWPORT_MARGIN = '0px';

/**
 * How long an element must stay in view before it counts. A reader flicking through a long
 * lesson, an in-page link's smooth scroll, or a block above growing as its content arrives
 * passes blocks by in a moment; each of them would otherwise load and draw for nothing.
 */
export const NEAR_VIEWPORT_DWELL_MS = 150;

/**
 * Whether the element given to `ref` has come into view (and stayed there a moment); once
 * true it stays true. Heavy blocks (Mermaid diagrams, benchmark widgets with their charts)
 * wait for it before loading their code, so a lesson's first load fetches what its first
 * screen shows. Without IntersectionObserver (jsdom, old browsers) everything is near at once.
 */
export function useNearViewport<T extends Element>(): [RefCallback<T>, boolean] {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (element: T | null) => {
      if (!element || near) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const observer = new IntersectionObserver(
        (entries) => {
          clearTimeout(timer);
          // One element is observed: its latest entry says where it is now.
          if (entries.at(-1)?.isIntersecting) {
            timer = setTimeout(() => {
              setNear(true);
            }, NEAR_VIEWPORT_DWELL_MS);
          }
        },
        { rootMargin: NEAR_VIEWPORT_MARGIN },
      );
      observer.observe(element);
      // React 19 calls this when the element goes, or when `near` turns true (a new ref).
      return () => {
        clearTimeout(timer);
        observer.disconnect();
      };
    },
    [near],
  );
  return [ref, near];
}
