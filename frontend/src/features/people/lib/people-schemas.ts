/**
 * The people endpoints' shapes (/api/auth/*, /api/classes): who this browser is, and an
 * instructor's classes (each a `classSchema`, src/lib/api-schemas.ts). Every schema is generated from the API's OpenAPI document
 * (src/lib/api/generated); this file names them for the people feature.
 */
import { z } from 'zod';

import { zJoined, zMe, zPersonOut } from '@/lib/api/generated/zod.gen';
import { classSchema } from '@/lib/api-schemas';

export const personSchema = zPersonOut;
export type Person = z.infer<typeof personSchema>;

/** GET /api/auth/me, and POST /api/classes/come-back's answer: `person` null when nobody is
 *  logged in or joined in this browser (`signed_out` then says why, if someone was), `class` a
 *  student's (null or absent for anyone else). */
export const meSchema = zMe;
export type Me = z.infer<typeof meSchema>;

/** POST /api/classes/join's answer: the new `me`, with the personal code shown this once. */
export const joinedSchema = zJoined;
export type Joined = z.infer<typeof joinedSchema>;

/** Why this browser's session no longer lets its person in (removed, or the class's results gone). */
export type SignedOut = NonNullable<Me['signed_out']>;

/** GET /api/classes: the instructor's classes. */
export const classListSchema = z.array(classSchema);
