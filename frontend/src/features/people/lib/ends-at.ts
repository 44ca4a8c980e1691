/**
 * A class's optional end time: the form's `datetime-local` value (the browser's wall clock, no
 * zone) sent as ISO 8601 with the browser's UTC offset at that moment, which the server
 * requires ("ISO 8601 with a zone"), e.g. 2026-11-25T15:30:00+01:00.
 */

/** The server accepts an end within this many days. */
export const MAX_CLASS_DAYS = 14;

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
export function endsAtFromInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  // A date-time without a zone is local time (ECMAScript's rule), as the input means it.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : toLocalIso(date);
}

/** A Date as a datetime-local value ("2026-11-25T15:30"), for the input's min and max. */
export function toInputValue(date: Date): string {
  return toLocalIso(date).slice(0, 16);
}
