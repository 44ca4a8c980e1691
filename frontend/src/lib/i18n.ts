/**
 * The interface's languages, through i18next. The English every page may show from its first
 * paint is bundled (locales/en/first-paint.ts), so that paint never waits for it; a feature's
 * own strings come with the feature (`withStrings`), and Simplified Chinese is fetched when
 * chosen, a chunk per namespace each. The choice is remembered in localStorage; a first visit
 * follows the browser's languages (any `zh-*` reads Chinese). Lessons and the glossary are
 * content, not strings: they come from the backend in the same language (see `useLanguage`).
 */
import i18next, { loadNamespaces } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

import type { en } from '@/locales/en';
import { firstPaint } from '@/locales/en/first-paint';

export const languages = ['en', 'zh'] as const;
export type Language = (typeof languages)[number];

/** Each language named in itself, as a language menu does: never translated. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '简体中文' };

/** The BCP 47 tag for `<html lang>`: the script matters to fonts and screen readers. */
export const HTML_LANG: Record<Language, string> = { en: 'en', zh: 'zh-Hans' };

export const LANGUAGE_STORAGE_KEY = 'c10klab.language';

const chinese = import.meta.glob<{ default: Record<string, unknown> }>('../locales/zh/*.json');
/** English not in `firstPaint`: what the features load with them. */
const laterEnglish = import.meta.glob<{ default: Record<string, unknown> }>([
  '../locales/en/bench.json',
  '../locales/en/classroom.json',
  '../locales/en/edit.json',
  '../locales/en/errors.json',
]);

export type Namespace = keyof typeof en;
/** A namespace fetched with what shows it, not bundled for the first paint. */
export type LaterNamespace = Exclude<Namespace, keyof typeof firstPaint>;
export const LATER_NAMESPACES = Object.keys(laterEnglish).map((path) =>
  path.slice('../locales/en/'.length, -'.json'.length),
) as LaterNamespace[];

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
      const load = lng === 'zh' ? chinese[`../locales/zh/${ns}.json`] : laterEnglish[`../locales/en/${ns}.json`];
      if (!load) throw new Error(`no ${lng} strings for ${ns}`);
      return (await load()).default;
    }),
  )
  .init({
    // A copy: i18next keeps each namespace it loads later in this object.
    resources: { en: { ...firstPaint } },
    partialBundledLanguages: true,
    supportedLngs: [...languages],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'en',
    // What the first paint shows; i18next adds each namespace loaded later to this list, so a
    // change of language fetches it again in the new one.
    ns: Object.keys(firstPaint),
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes what it renders
    detection: { order: ['localStorage', 'navigator'], lookupLocalStorage: LANGUAGE_STORAGE_KEY, caches: ['localStorage'] },
    react: { useSuspense: false, bindI18n: 'languageChanged loaded' },
    returnNull: false,
  })
  .then(() => { syncDocumentLanguage(i18next.resolvedLanguage ?? 'en'); });

i18next.on('languageChanged', syncDocumentLanguage);

/** Fetches these namespaces in the language shown and English behind it (once; later calls
 *  resolve at once). A namespace that cannot be fetched leaves its keys unworded, not an error. */
export function loadStrings(namespaces: readonly LaterNamespace[]): Promise<void> {
  return loadNamespaces([...namespaces]);
}

/**
 * A module loaded later (a route, a feature's component) together with the strings it shows,
 * fetched side by side: what it draws is never drawn before its words are there.
 */
export async function withStrings<T>(namespaces: readonly LaterNamespace[], load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadStrings(namespaces)]);
  return module;
}

export { i18next };
