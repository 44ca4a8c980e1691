/**
 * What raw HTML a lesson may contain. Lessons are ours, but they are rendered as
 * HTML, so they pass the same sanitiser GitHub uses for READMEs (rehype-sanitize's
 * default schema), extended only by what the lesson format needs:
 *
 * - `<details><summary>…</summary> … </details>` for "Check yourself" answers
 *   (both tags and `open` are already in the default schema);
 * - `<details class="speaker-notes">` for instructor notes: the one class allowed on `details`.
 *
 * Scripts, event handlers (`onerror=`), `style`, iframes and `javascript:` links are removed.
 */
import { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';

export const SPEAKER_NOTES_CLASS = 'speaker-notes';

const defaultAttributes = defaultSchema.attributes ?? {};

export const lessonSanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [...new Set([...(defaultSchema.tagNames ?? []), 'details', 'summary'])],
  attributes: {
    ...defaultAttributes,
    details: [...(defaultAttributes.details ?? []), ['className', SPEAKER_NOTES_CLASS]],
  },
};
