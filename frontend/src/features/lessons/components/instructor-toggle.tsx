import { useTranslation } from 'react-i18next';

interface InstructorToggleProps {
  enabled: boolean;
  onChange: (enabled: boolean) => void;
}

/** A switch for instructor mode (speaker notes shown). */
export function InstructorToggle({ enabled, onChange }: InstructorToggleProps) {
  const { t } = useTranslation('lessons');
  return (
    <label className="instructor-toggle" title={t('instructor.hint')}>
      <input
        type="checkbox"
        role="switch"
        checked={enabled}
        onChange={(event) => {
          onChange(event.target.checked);
        }}
      />
      <span className="instructor-toggle__track" aria-hidden="true" />
      {t('instructor.label')}
    </label>
  );
}
