/**
 * What raw HTML a lesson may contain. Lessons are ours, but they are rendered as
 * HTML, so they pass the same sanitiser GitHub uses for READMEs (rehype-sanitize's
 * default schema), extended only by what the lesson format needs:
 *
 * - `<details><summary>…</summary> … </details>` for "Check yourself" answers
 *   (both tags and `open` are already in the default schema);
 * - `<details class="speaker-notes">` for instructor notes: the one class allowed on `details`;
 * - `<div class="class-question" data-question="N">`, which the server puts before each
 *   answer of Check yourself in classroom mode: where the class's answers go.
 *
 * Scripts, event handlers (`onerror=`), `style`, iframes and `javascript:` links are removed.
 */
import { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';

export const SPEAKER_NOTES_CLASS = 'speaker-notes';
export const CLASS_QUESTION_CLASS = 'class-question';

const defaultAttributes = defaultSchema.attributes ?? {};

export const lessonSanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [...new Set([...(defaultSchema.tagNames ?? []), 'details', 'summary'])],
  attributes: {
    ...defaultAttributes,
    details: [...(defaultAttributes.details ?? []), ['className', SPEAKER_NOTES_CLASS]],
    div: [...(defaultAttributes.div ?? []), ['className', CLASS_QUESTION_CLASS], ['dataQuestion', /^\d{1,3}$/]],
  },
};
