import { useId } from 'react';

interface LogScaleToggleProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** "Log scale" for a latency axis: one slow outlier no longer flattens every other point. */
export function LogScaleToggle({ checked, onChange }: LogScaleToggleProps) {
  const id = useId();
  return (
    <span className="log-scale-toggle">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => {
          onChange(e.target.checked);
        }} />
      <label htmlFor={id}>log scale</label>
    </span>
  );
}
