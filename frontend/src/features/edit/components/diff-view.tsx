import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useTheme } from '@/hooks/use-theme';

import { baseTheme, cEditor, editorWords } from '../lib/editor-setup';

export type DiffLayout = 'unified' | 'split';

interface DiffViewProps {
  original: string;
  changed: string;
  layout: DiffLayout;
  /** What the changed side is, in words (translated), e.g. "your edit". */
  changedLabel: string;
  /** What it is compared with (translated): "the original" unless said ("the starter"). */
  originalLabel?: string;
  file: string;
}

/** Long stretches the two sides share fold away, a few lines kept around each change. */
const COLLAPSE = { margin: 3, minSize: 6 };

/**
 * The edited file against the original (or another starting point), read-only: one column with the removed lines shown
 * above the added ones (unified), or the two side by side (@codemirror/merge).
 */
export function DiffView({ original, changed, layout, changedLabel, originalLabel: givenOriginal, file }: DiffViewProps) {
  const { t } = useTranslation('edit');
  const originalLabel = givenOriginal ?? t('diff.theOriginal');
  const host = useRef<HTMLDivElement>(null);
  const dark = useTheme().theme === 'dark';
  const unifiedLabel = t('diff.unifiedLabel', { file, changed: changedLabel, original: originalLabel });
  const leftLabel = t('diff.sideLabel', { file, side: originalLabel });
  const rightLabel = t('diff.sideLabel', { file, side: changedLabel });

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    if (layout === 'unified') {
      const view = new EditorView({
        parent,
        doc: changed,
        extensions: [
          cEditor({ readOnly: true }),
          editorWords({ label: unifiedLabel, t }),
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
      a: { doc: original, extensions: [cEditor({ readOnly: true }), editorWords({ label: leftLabel, t }), baseTheme(dark)] },
      b: { doc: changed, extensions: [cEditor({ readOnly: true }), editorWords({ label: rightLabel, t }), baseTheme(dark)] },
      highlightChanges: true,
      gutter: true,
      collapseUnchanged: COLLAPSE,
    });
    return () => {
      merge.destroy();
    };
  }, [original, changed, layout, unifiedLabel, leftLabel, rightLabel, t, dark]);

  if (original === changed) {
    return (
      <p className="edit__no-changes" data-testid="diff-none">
        {t('diff.none', { original: originalLabel, file })}
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
      aria-label={
        layout === 'split'
          ? t('diff.splitLabel', { file, original: originalLabel, changed: changedLabel })
          : t('diff.changesTo', { file })
      }
    />
  );
}
