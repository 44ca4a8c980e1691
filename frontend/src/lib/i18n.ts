/**
 * The interface's languages, through i18next. English is bundled, so the first paint and the
 * unit tests never wait for it; Simplified Chinese is its own chunk per namespace, fetched when
 * chosen. The choice is remembered in localStorage; a first visit follows the browser's
 * languages (any `zh-*` reads Chinese). Lessons and the glossary are content, not strings: they
 * come from the backend in the same language (see `useLanguage`).
 */
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

import { en } from '@/locales/en';

export const languages = ['en', 'zh'] as const;
export type Language = (typeof languages)[number];

/** Each language named in itself, as a language menu does: never translated. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '简体中文' };

/** The BCP 47 tag for `<html lang>`: the script matters to fonts and screen readers. */
export const HTML_LANG: Record<Language, string> = { en: 'en', zh: 'zh-Hans' };

export const LANGUAGE_STORAGE_KEY = 'c10klab.language';

const chinese = import.meta.glob<{ default: Record<string, unknown> }>('../locales/zh/*.json');

export function isLanguage(value: string): value is Language {
  return (languages as readonly string[]).includes(value);
}

/** The language the interface shows now (English until i18next has decided). */
export function currentLanguage(): Language {
  const lng = i18next.resolvedLanguage ?? 'en';
  return isLanguage(lng) ? lng : 'en';
}

function syncDocumentLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[isLanguage(lng) ? lng : 'en'];
}

/** Resolves once the detected language's strings are loaded: main.tsx renders after it. */
// eslint-disable-next-line import/no-named-as-default-member -- the set-up i18next documents: plugins chained on the instance
export const i18nReady = i18next
  .use(LanguageDetector)
  .use(initReactI18next)
  .use(
    resourcesToBackend(async (lng: string, ns: string) => {
      const load = lng === 'zh' ? chinese[`../locales/zh/${ns}.json`] : undefined;
      if (!load) throw new Error(`no ${lng} strings for ${ns}`);
      return (await load()).default;
    }),
  )
  .init({
    resources: { en },
    partialBundledLanguages: true,
    supportedLngs: [...languages],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'en',
    ns: Object.keys(en),
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes what it renders
    detection: { order: ['localStorage', 'navigator'], lookupLocalStorage: LANGUAGE_STORAGE_KEY, caches: ['localStorage'] },
    react: { useSuspense: false, bindI18n: 'languageChanged loaded' },
    returnNull: false,
  })
  .then(() => { syncDocumentLanguage(i18next.resolvedLanguage ?? 'en'); });

i18next.on('languageChanged', syncDocumentLanguage);

export { i18next };
