import type { EditT, Refusal } from './check-state';

interface RefusedAnswer {
  message: string;
  status: number | null;
  retryAfterS?: number | null;
}

/**
 * What the API said when it refused the file, as the interface words it (the 422's "The file is
 * 70000 bytes; …", the 429's "You already have 3 builds …"), and for a 429, the seconds it asks
 * to wait.
 */
export function describeRefusal(answer: RefusedAnswer | Error): Refusal {
  const status = 'status' in answer ? answer.status : null;
  const retryAfterS = 'retryAfterS' in answer ? (answer.retryAfterS ?? null) : null;
  return { message: answer.message, tooMany: status === 429, retryAfterS: status === 429 ? retryAfterS : null };
}

/** What the page says beside Build & check: the API's words, and after a 429, when to try again. */
export function refusalText(refusal: Refusal, t: EditT): string {
  if (!refusal.tooMany) return refusal.message;
  // The sentence ends with a stop before "Try again …": its own (a Chinese 。 too), or a "." added.
  const said = /[.!?。！？]$/.test(refusal.message) ? refusal.message : `${refusal.message}.`;
  return refusal.retryAfterS !== null
    ? t('refusal.tryAgainIn', { said, seconds: refusal.retryAfterS })
    : t('refusal.tryAgainLater', { said });
}
