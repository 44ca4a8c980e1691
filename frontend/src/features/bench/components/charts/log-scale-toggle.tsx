import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface LogScaleToggleProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** "Log scale" for a latency axis: one slow outlier no longer flattens every other point. */
export function LogScaleToggle({ checked, onChange }: LogScaleToggleProps) {
  const { t } = useTranslation('bench');
  const id = useId();
  return (
    <span className="log-scale-toggle">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => {
          onChange(e.target.checked);
        }} />
      <label htmlFor={id}>{t('chart.logScale')}</label>
    </span>
  );
}
