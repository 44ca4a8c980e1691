import type { ReactNode } from 'react';

import type { DraftStatus } from '../hooks/use-draft-text';

import { DiffLayoutPicker } from './diff-layout-picker';
import type { DiffLayout } from './diff-view';

export type Showing = 'editor' | 'changes';

function describeDraft(status: DraftStatus, baseName: string): string {
  switch (status) {
    case 'base':
      return `${baseName}, unchanged`;
    case 'unsaved':
      return 'saving the draft…';
    case 'saved':
      return 'draft saved in this browser';
    case 'not-saved':
      return 'this browser would not keep the draft: copy your changes somewhere safe';
  }
}

interface EditorToolbarProps {
  /** What the text started as, in words: "the original", "the starter". */
  baseName: string;
  /** Does the text differ from it (Reset has something to do)? */
  edited: boolean;
  resetLabel: string;
  /** Reset asks first: the page holds whether it is asking (typing stops it). */
  confirmingReset: boolean;
  onConfirmingReset: (confirming: boolean) => void;
  onReset: () => void;
  showing: Showing;
  onShowing: (showing: Showing) => void;
  layout: DiffLayout;
  onLayout: (layout: DiffLayout) => void;
  draftStatus: DraftStatus;
  /** The page's own buttons: Build & check, Check my answer, Cancel. */
  children: ReactNode;
}

/** Above an editor: Reset (confirmed), Show changes (and how), the page's buttons, and
 *  whether the draft is kept. */
export function EditorToolbar({
  baseName,
  edited,
  resetLabel,
  confirmingReset,
  onConfirmingReset,
  onReset,
  showing,
  onShowing,
  layout,
  onLayout,
  draftStatus,
  children,
}: EditorToolbarProps) {
  return (
    <div className="edit__toolbar" role="group" aria-label="Editor actions">
      {confirmingReset ? (
        <span className="edit__confirm" role="group" aria-label="Confirm reset">
          <span>Discard your changes and go back to {baseName}?</span>
          <button type="button" className="button button--small" onClick={onReset} data-testid="reset-confirm">
            Discard changes
          </button>
          <button type="button" className="button button--small" onClick={() => { onConfirmingReset(false); }}>
            Keep editing
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => { if (edited) onConfirmingReset(true); }}
          disabled={!edited}
          title={edited ? `Back to ${baseName}` : `This is ${baseName}`}
        >
          {resetLabel}
        </button>
      )}
      <button
        type="button"
        className="button"
        aria-pressed={showing === 'changes'}
        onClick={() => { onShowing(showing === 'editor' ? 'changes' : 'editor'); }}
      >
        {showing === 'changes' ? 'Back to editing' : 'Show changes'}
      </button>
      {showing === 'changes' ? <DiffLayoutPicker layout={layout} onChange={onLayout} /> : null}
      {children}
      <span className="edit__draft" data-testid="draft-status" data-status={draftStatus}>
        {describeDraft(draftStatus, baseName)}
      </span>
    </div>
  );
}
