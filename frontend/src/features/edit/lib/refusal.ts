import type { EditT, Refusal } from './check-state';

interface RefusedAnswer {
  message: string;
  status: number | null;
  retryAfterS?: number | null;
}

/**
 * What the API said when it refused the file: its own words (the 422's "source: 70,000 bytes;
 * …", the 429's "you already have 3 builds …"), and for a 429, the seconds it asks to wait.
 */
export function describeRefusal(answer: RefusedAnswer | Error): Refusal {
  const status = 'status' in answer ? answer.status : null;
  const retryAfterS = 'retryAfterS' in answer ? (answer.retryAfterS ?? null) : null;
  return { message: answer.message, tooMany: status === 429, retryAfterS: status === 429 ? retryAfterS : null };
}

/** What the page says beside Build & check: the API's words, and after a 429, when to try again. */
export function refusalText(refusal: Refusal, t: EditT): string {
  if (!refusal.tooMany) return refusal.message;
  const said = refusal.message.replace(/\.?$/, '.');
  return refusal.retryAfterS !== null
    ? t('refusal.tryAgainIn', { said, seconds: refusal.retryAfterS })
    : t('refusal.tryAgainLater', { said });
}
