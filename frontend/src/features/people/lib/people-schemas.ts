/**
 * The people endpoints' shapes (/api/auth/*, /api/classes): who this browser is, and an
 * instructor's classes (each a `classSchema`, src/lib/api-schemas.ts). Every schema is generated from the API's OpenAPI document
 * (src/lib/api/generated); this file names them for the people feature.
 */
import { z } from 'zod';

import { zMe, zPersonOut } from '@/lib/api/generated/zod.gen';
import { classSchema } from '@/lib/api-schemas';

export const personSchema = zPersonOut;
export type Person = z.infer<typeof personSchema>;

/** GET /api/auth/me, and POST /api/classes/join's answer: `person` null when nobody is logged
 *  in or joined in this browser, `class` a student's (null or absent for anyone else). */
export const meSchema = zMe;
export type Me = z.infer<typeof meSchema>;

/** GET /api/classes: the instructor's classes. */
export const classListSchema = z.array(classSchema);
