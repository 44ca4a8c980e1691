import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { DiffLayout } from './diff-view';

const LAYOUTS = [
  { value: 'unified', label: 'diff.layout.unified' },
  { value: 'split', label: 'diff.layout.split' },
] as const satisfies readonly { value: DiffLayout; label: string }[];

/** One column (removed lines above the added) or the two files side by side. */
export function DiffLayoutPicker({ layout, onChange }: { layout: DiffLayout; onChange: (layout: DiffLayout) => void }) {
  const { t } = useTranslation('edit');
  const name = useId();
  return (
    <fieldset className="diff-layout">
      <legend className="visually-hidden">{t('diff.layout.legend')}</legend>
      {LAYOUTS.map((l) => (
        <label key={l.value}>
          <input
            type="radio"
            name={name}
            value={l.value}
            checked={layout === l.value}
            onChange={() => { onChange(l.value); }}
          />{' '}
          {t(l.label)}
        </label>
      ))}
    </fieldset>
  );
}
