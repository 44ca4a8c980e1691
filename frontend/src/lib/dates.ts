/**
 * Dates as the course writes and reads them. Written in the interface's language: "25 Nov
 * 2026, 10:08" in English (day first, as the whole site), "2026年11月25日 10:08" in Chinese, in
 * the reader's time zone. Read from a `datetime-local` input (the browser's wall clock, no
 * zone) and sent as ISO 8601 with the browser's UTC offset at that moment, which the API
 * requires ("ISO 8601 with a zone"), e.g. 2026-11-25T15:30:00+01:00: a class's end, an
 * assignment's due time.
 */
import { isLanguage, type Language } from './i18n';

const DATE_LOCALES: Record<Language, string> = { en: 'en-GB', zh: 'zh-Hans' };

/** The locale a date is written in, for the interface's language (`i18n.resolvedLanguage`). */
export function dateLocale(lng: string | undefined): string {
  return DATE_LOCALES[lng && isLanguage(lng) ? lng : 'en'];
}

/** A day and a time: a draft's, a saved edit's, a due time. */
export function formatDateTime(date: Date, lng: string | undefined): string {
  return date.toLocaleString(dateLocale(lng), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time of day, "14:05", 24-hour in both languages (the course's clock, whatever the
 *  browser's region would pick). */
export function formatClock(date: Date, lng: string | undefined): string {
  return date.toLocaleTimeString(dateLocale(lng), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** A short moment in a list, "25 Nov, 10:08", or the text as it came when it is not a date. */
export function formatListDate(iso: string, lng: string | undefined): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(dateLocale(lng), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A Date as the browser's wall-clock time with its offset then (daylight saving included). */
export function toLocalIso(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** "2026-11-25T15:30" (a datetime-local value) → ISO 8601 with the offset; null for '' or nonsense. */
export function isoFromInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  // A date-time without a zone is local time (ECMAScript's rule), as the input means it.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : toLocalIso(date);
}

/** A Date as a datetime-local value ("2026-11-25T15:30"), for the input's min and max. */
export function toInputValue(date: Date): string {
  return toLocalIso(date).slice(0, 16);
}

/** The browser's time zone by name ("Europe/Berlin"), which a time typed in a picker is read in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
