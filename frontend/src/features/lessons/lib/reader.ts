/**
 * Who is reading, as GET /api/auth/me says. The app asks (the people feature owns that call)
 * and hands it down; the lessons feature only decides from it where progress is kept and
 * whether the speaker notes may be switched on.
 */
export interface Reader {
  mode: 'solo' | 'classroom';
  person: { id: string; kind: 'solo' | 'instructor' | 'student'; read_only_until?: string | null } | null;
}

/** A Reader; `null` while it is still being asked; `undefined` when nobody said (solo, as before). */
export type ReaderProp = Reader | null | undefined;

/**
 * Where the lessons read are kept: this browser's localStorage (solo mode, or a class's
 * anonymous visitor), the server (someone signed in to a class: the instructor sees it on
 * the roster), or nowhere yet (who reads is not known: nothing is shown or saved meanwhile).
 */
export type ProgressStore =
  | { in: 'browser' }
  | { in: 'server'; personId: string; readOnly: boolean }
  | { in: 'unknown' };

/** A student whose class ended reads their progress from the server and changes nothing. */
export function progressStoreFor(reader: ReaderProp): ProgressStore {
  if (reader === undefined) return { in: 'browser' };
  if (reader === null) return { in: 'unknown' };
  if (reader.mode === 'classroom' && reader.person) {
    return { in: 'server', personId: reader.person.id, readOnly: Boolean(reader.person.read_only_until) };
  }
  return { in: 'browser' };
}

/** The speaker notes are an instructor's (the server strips them for anyone else), or solo's. */
export function maySeeSpeakerNotes(reader: ReaderProp): boolean {
  if (reader === undefined) return true;
  if (reader === null) return false;
  return reader.mode === 'solo' || reader.person?.kind === 'instructor';
}

/**
 * Whether the lesson shows the switch for the speaker notes: to a class's instructor always; in
 * solo mode only while the notes are on (asked for with `?instructor=1`), so they can be put
 * away again. A learner on their own never meets a control that is not theirs.
 */
export function showsInstructorSwitch(reader: ReaderProp, notesOn: boolean): boolean {
  if (!maySeeSpeakerNotes(reader)) return false;
  const teaching = reader?.mode === 'classroom' && reader.person?.kind === 'instructor';
  return teaching || notesOn;
}
