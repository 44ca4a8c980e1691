import { useTranslation } from 'react-i18next';

import { isLanguage, type Language } from '@/lib/i18n';

/** The interface's language now; a component using it re-renders when the reader switches.
 *  Content queries (lessons, glossary) put it in their key, so each language is its own entry. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  return isLanguage(lng) ? lng : 'en';
}
