import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** How long to wait for the element a link points at (the page fetches what it shows). */
const WAIT_MS = 10_000;

/** Marks the element a link led to (`data-hash-target`), for the page's style to highlight. */
export const HASH_TARGET = 'data-hash-target';

/**
 * A link to a section (`/lessons/05-epoll#edge-triggered`, `/glossary#backpressure`: search
 * results and glossary links) scrolls to it once the page has drawn it, and marks it so the
 * reader sees which it is. React Router's scroll restoration looks for the element only at
 * the moment of navigation, before a lesson loads.
 */
export function useScrollToHash(): void {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    const scrolled = () => {
      const target = document.getElementById(id);
      if (!target) return false;
      for (const marked of document.querySelectorAll(`[${HASH_TARGET}]`)) marked.removeAttribute(HASH_TARGET);
      target.setAttribute(HASH_TARGET, '');
      target.scrollIntoView({ block: 'start' });
      return true;
    };
    if (scrolled()) return;
    const observer = new MutationObserver(() => {
      if (scrolled()) stop();
    });
    const timer = window.setTimeout(stop, WAIT_MS);
    function stop() {
      observer.disconnect();
      window.clearTimeout(timer);
    }
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [hash, key]);
}
