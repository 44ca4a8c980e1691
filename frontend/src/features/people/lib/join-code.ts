/**
 * Join codes in URLs: `/#/join?code=K7QX-M4TP` pre-fills the join form, so a link or a QR
 * code on the projector can carry the code. The server normalises whatever is typed
 * (capitals, no spaces or dashes); here it is only tidied for showing.
 */
import { z } from 'zod';

/** The server accepts up to 40 characters for a code. */
export const MAX_CODE_LENGTH = 40;
/** …and names of 1–40 characters once trimmed. */
export const MAX_NAME_LENGTH = 40;

const codeParamSchema = z.string().trim().toUpperCase().max(MAX_CODE_LENGTH);

/** The `code` query parameter as the join form's starting value; '' when absent or unusable. */
export function codeFromSearch(params: URLSearchParams): string {
  const parsed = codeParamSchema.safeParse(params.get('code') ?? '');
  return parsed.success ? parsed.data : '';
}
