import type { Refusal } from './check-state';

interface RefusedAnswer {
  message: string;
  status: number | null;
  retryAfterS?: number | null;
}

/**
 * What the page says beside Build & check when the API refused the file: its own words (the
 * 422's "source: 70,000 bytes; …", the 429's "you already have 3 builds …"), and for a 429,
 * when to try again.
 */
export function describeRefusal(answer: RefusedAnswer | Error): Refusal {
  const message = answer.message;
  const status = 'status' in answer ? answer.status : null;
  const retryAfterS = 'retryAfterS' in answer ? (answer.retryAfterS ?? null) : null;
  if (status === 429) {
    const when = retryAfterS !== null ? ` Try again in ${retryAfterS} s.` : ' Try again once one has finished.';
    return { message: `${message.replace(/\.?$/, '.')}${when}`, retryAfterS };
  }
  return { message, retryAfterS: null };
}
