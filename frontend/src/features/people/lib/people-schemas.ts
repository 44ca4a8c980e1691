/**
 * The people endpoints' shapes (/api/auth/*, /api/classes): who this browser is, and an
 * instructor's classes. Every schema is generated from the API's OpenAPI document
 * (src/lib/api/generated); this file names them for the people feature.
 */
import { z } from 'zod';

import { zClassOut, zMe, zPersonOut } from '@/lib/api/generated/zod.gen';

export const personSchema = zPersonOut;
export type Person = z.infer<typeof personSchema>;

/** GET /api/auth/me, and POST /api/classes/join's answer: `person` null when nobody is logged
 *  in or joined in this browser, `class` a student's (null or absent for anyone else). */
export const meSchema = zMe;
export type Me = z.infer<typeof meSchema>;

/** A class as its instructor sees it (`join_code` as shown to students, e.g. K7QX-M4TP). */
export const classSchema = zClassOut;
export type Class = z.infer<typeof classSchema>;

export const classListSchema = z.array(classSchema);
