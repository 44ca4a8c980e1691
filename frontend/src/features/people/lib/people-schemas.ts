/**
 * zod schemas for the people endpoints (/api/auth/*, /api/classes): who this browser is, and
 * an instructor's classes. Objects are non-strict like the rest of the API's schemas.
 */
import { z } from 'zod';

export const personSchema = z.object({
  id: z.string(),
  kind: z.enum(['solo', 'instructor', 'student']),
  name: z.string(),
});
export type Person = z.infer<typeof personSchema>;

const classBriefSchema = z.object({ id: z.string(), name: z.string() });

/** GET /api/auth/me, and POST /api/classes/join's answer. */
export const meSchema = z.object({
  mode: z.enum(['solo', 'classroom']),
  /** null: nobody is logged in or joined in this browser. */
  person: personSchema.nullable(),
  /** A student's class; null for anyone else. */
  class: classBriefSchema.nullish().transform((c) => c ?? null),
});
export type Me = z.infer<typeof meSchema>;

export const classSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** As shown to students, e.g. K7QX-M4TP. */
  join_code: z.string(),
  created_at: z.string(),
  /** When it ends by itself; null when it runs until its instructor ends it. */
  ends_at: z.string().nullish().transform((t) => t ?? null),
  ended_at: z.string().nullish().transform((t) => t ?? null),
  students: z.number().int().nonnegative(),
});
export type Class = z.infer<typeof classSchema>;

export const classListSchema = z.array(classSchema);
