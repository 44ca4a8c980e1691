import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { themePreferences, useTheme, type ThemePreference } from '@/hooks/use-theme';

/** Each preference's name, a key of `common:theme`. */
const LABELS = {
  system: 'theme.system',
  light: 'theme.light',
  dark: 'theme.dark',
} as const satisfies Record<ThemePreference, string>;

function isPreference(value: string): value is ThemePreference {
  return (themePreferences as readonly string[]).includes(value);
}

/**
 * The header's theme switch: follow the system, or always light or dark. A native select, so
 * it is labelled, works from the keyboard and suits a phone without any code of ours. Mounted
 * once, it also keeps `<html data-theme>` in step with the preference and the system.
 */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { preference, setPreference } = useTheme();
  const id = useId();
  // The label beside the select, not around it: its name is then "Theme" alone.
  return (
    <div className="inline-field theme-switch">
      <label htmlFor={id}>{t('theme.label')}</label>
      <select
        id={id}
        value={preference}
        onChange={(event) => {
          if (isPreference(event.target.value)) setPreference(event.target.value);
        }}
      >
        {themePreferences.map((p) => (
          <option key={p} value={p}>
            {t(LABELS[p])}
          </option>
        ))}
      </select>
    </div>
  );
}
