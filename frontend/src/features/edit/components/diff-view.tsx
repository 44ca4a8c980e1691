import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';

import { useTheme } from '@/hooks/use-theme';

import { baseTheme, cEditor } from '../lib/editor-setup';

export type DiffLayout = 'unified' | 'split';

interface DiffViewProps {
  original: string;
  changed: string;
  layout: DiffLayout;
  /** What the changed side is, e.g. "your edit". */
  changedLabel: string;
  /** What it is compared with: "the original" unless said ("the starter"). */
  originalLabel?: string;
  file: string;
}

/** Long stretches the two sides share fold away, a few lines kept around each change. */
const COLLAPSE = { margin: 3, minSize: 6 };

/**
 * The edited file against the original (or another starting point), read-only: one column with the removed lines shown
 * above the added ones (unified), or the two side by side (@codemirror/merge).
 */
export function DiffView({ original, changed, layout, changedLabel, originalLabel = 'the original', file }: DiffViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const dark = useTheme().theme === 'dark';

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    if (layout === 'unified') {
      const view = new EditorView({
        parent,
        doc: changed,
        extensions: [
          cEditor({ label: `Changes to ${file}: ${changedLabel} against ${originalLabel}`, readOnly: true }),
          baseTheme(dark),
          unifiedMergeView({ original, mergeControls: false, highlightChanges: true, gutter: true, collapseUnchanged: COLLAPSE }),
        ],
      });
      return () => {
        view.destroy();
      };
    }
    const merge = new MergeView({
      parent,
      a: { doc: original, extensions: [cEditor({ label: `${file}, ${originalLabel}`, readOnly: true }), baseTheme(dark)] },
      b: { doc: changed, extensions: [cEditor({ label: `${file}, ${changedLabel}`, readOnly: true }), baseTheme(dark)] },
      highlightChanges: true,
      gutter: true,
      collapseUnchanged: COLLAPSE,
    });
    return () => {
      merge.destroy();
    };
  }, [original, changed, layout, changedLabel, originalLabel, file, dark]);

  if (original === changed) {
    return (
      <p className="edit__no-changes" data-testid="diff-none">
        No changes: this is {originalLabel} {file}.
      </p>
    );
  }
  return (
    <div
      className={`diff-view diff-view--${layout}`}
      data-testid="diff-view"
      data-layout={layout}
      ref={host}
      role="group"
      aria-label={layout === 'split' ? `${file}: ${originalLabel} (left) and ${changedLabel} (right)` : `Changes to ${file}`}
    />
  );
}
