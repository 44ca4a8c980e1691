import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { HTML_LANG, isLanguage, LANGUAGE_NAMES, languages } from '@/lib/i18n';

/**
 * The header's language switch: English or Simplified Chinese, remembered in this browser.
 * Each language is named in itself, so a reader who cannot read the current one still finds
 * theirs. Lessons and the glossary follow it too: their queries are keyed by the language.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = isLanguage(i18n.resolvedLanguage ?? '') ? i18n.resolvedLanguage : 'en';
  return (
    <div className="inline-field theme-switch language-switch">
      <label htmlFor={id}>{t('language.label')}</label>
      <select id={id} value={current} onChange={(event) => { void i18n.changeLanguage(event.target.value); }}>
        {languages.map((lng) => (
          <option key={lng} value={lng} lang={HTML_LANG[lng]}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
    </div>
  );
}
