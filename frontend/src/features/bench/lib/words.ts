/**
 * Words the bench's parts say alike, in the interface's language: a run's or point's status,
 * a varied field's name, servers set against each other (dates: src/lib/dates.ts).
 * Each takes the caller's `t` (or language), so a label follows a language switch.
 */
import type { TFunction } from 'i18next';

const STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled', 'skipped'] as const;
type Status = (typeof STATUSES)[number];

const VARIED = ['connections', 'idle_connections', 'rate', 'payload_bytes', 'round'] as const;
type Varied = (typeof VARIED)[number];

/** A run's, a series' or a point's status ("done", "skipped"…); one the API added since, as it came. */
export function statusWord(status: string, t: TFunction<'bench'>): string {
  return (STATUSES as readonly string[]).includes(status) ? t(`status.${status as Status}`) : status;
}

/** What a series varies, as a column or axis is headed ("idle connections"); an unknown field
 *  by its name in words. */
export function variedName(vary: string, t: TFunction<'bench'>): string {
  return (VARIED as readonly string[]).includes(vary) ? t(`varied.${vary as Varied}`) : vary.replaceAll('_', ' ');
}

/** "c-epoll vs c-poll". */
export function versus(servers: readonly string[], t: TFunction<'bench'>): string {
  return servers.join(t('list.versus'));
}

/** Parts of one phrase, one after the other: "…, …" in English, "…，…" in Chinese. */
export function listed(parts: readonly string[], t: TFunction<'bench'>): string {
  return parts.join(t('list.separator'));
}
