import type { ReactNode } from 'react';

import { useNearViewport } from '@/hooks/use-near-viewport';

import './when-near-viewport.css';

interface WhenNearViewportProps {
  /** What to render once this place is near the viewport (it may load code then). */
  children: ReactNode;
  /** Shown until then, in a box of `minHeight`, so the page does not jump when it arrives. */
  label: string;
  minHeight: string;
}

/**
 * Renders `children` only when a reader scrolls near them: a lesson's first load then
 * fetches what its first screen shows, not every widget's code further down.
 */
export function WhenNearViewport({ children, label, minHeight }: WhenNearViewportProps) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  if (near) return children;
  return (
    <div ref={ref} className="when-near-viewport" style={{ minHeight }} data-testid="not-yet-loaded">
      <p className="loading">{label}</p>
    </div>
  );
}
