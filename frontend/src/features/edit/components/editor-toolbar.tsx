import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { DraftStatus } from '../hooks/use-draft-text';
import type { EditT } from '../lib/check-state';

import { DiffLayoutPicker } from './diff-layout-picker';
import type { DiffLayout } from './diff-view';

export type Showing = 'editor' | 'changes';

function describeDraft(status: DraftStatus, baseName: string, t: EditT): string {
  switch (status) {
    case 'base':
      return t('toolbar.draft.base', { base: baseName });
    case 'unsaved':
      return t('toolbar.draft.unsaved');
    case 'saved':
      return t('toolbar.draft.saved');
    case 'not-saved':
      return t('toolbar.draft.notSaved');
  }
}

interface EditorToolbarProps {
  /** What the text started as, in words (translated): "the original", "the starter". */
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
  const { t } = useTranslation('edit');
  return (
    <div className="edit__toolbar" role="group" aria-label={t('toolbar.label')}>
      {confirmingReset ? (
        <span className="edit__confirm" role="group" aria-label={t('toolbar.confirmLabel')}>
          <span>{t('toolbar.confirm', { base: baseName })}</span>
          <button type="button" className="button button--small" onClick={onReset} data-testid="reset-confirm">
            {t('toolbar.discard')}
          </button>
          <button type="button" className="button button--small" onClick={() => { onConfirmingReset(false); }}>
            {t('toolbar.keepEditing')}
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => { if (edited) onConfirmingReset(true); }}
          disabled={!edited}
          title={edited ? t('toolbar.resetTitle', { base: baseName }) : t('toolbar.resetTitleUnchanged', { base: baseName })}
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
        {showing === 'changes' ? t('toolbar.backToEditing') : t('toolbar.showChanges')}
      </button>
      {showing === 'changes' ? <DiffLayoutPicker layout={layout} onChange={onLayout} /> : null}
      {children}
      <span className="edit__draft" data-testid="draft-status" data-status={draftStatus}>
        {describeDraft(draftStatus, baseName, t)}
      </span>
    </div>
  );
}
