import { useId } from 'react';

import type { DiffLayout } from './diff-view';

const LAYOUTS: { value: DiffLayout; label: string }[] = [
  { value: 'unified', label: 'One column' },
  { value: 'split', label: 'Side by side' },
];

/** One column (removed lines above the added) or the two files side by side. */
export function DiffLayoutPicker({ layout, onChange }: { layout: DiffLayout; onChange: (layout: DiffLayout) => void }) {
  const name = useId();
  return (
    <fieldset className="diff-layout">
      <legend className="visually-hidden">Show the changes</legend>
      {LAYOUTS.map((l) => (
        <label key={l.value}>
          <input
            type="radio"
            name={name}
            value={l.value}
            checked={layout === l.value}
            onChange={() => { onChange(l.value); }}
          />{' '}
          {l.label}
        </label>
      ))}
    </fieldset>
  );
}
