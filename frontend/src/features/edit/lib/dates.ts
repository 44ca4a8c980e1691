/**
 * Dates as the edit pages show them, in the interface's language: "25 Nov 2026, 10:08" in
 * English (day first, as the rest of the site), "2026年11月25日 10:08" in Chinese.
 */
import { isLanguage, type Language } from '@/lib/i18n';

const DATE_LOCALES: Record<Language, string> = { en: 'en-GB', zh: 'zh-Hans' };

function locale(lng: string | undefined): string {
  return DATE_LOCALES[lng && isLanguage(lng) ? lng : 'en'];
}

/** A day and a time: a draft's, a saved edit's. */
export function formatDateTime(date: Date, lng: string | undefined): string {
  return date.toLocaleString(locale(lng), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A short moment in a list, "25 Nov, 10:08", or the text as it came when it is not a date. */
export function formatListDate(iso: string, lng: string | undefined): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(locale(lng), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}
