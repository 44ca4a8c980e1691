/** Answers of the people endpoints (/api/auth/me, /api/classes…), as the backend sends them. */

export const soloMe = { mode: 'solo', person: { id: 'solo', kind: 'solo', name: 'you' }, class: null, signed_out: null };

export const nobodyMe = { mode: 'classroom', person: null, class: null, signed_out: null };

export const grace = { id: 'p-grace', kind: 'instructor', name: 'Grace' };
export const instructorMe = { mode: 'classroom', person: grace, class: null, signed_out: null };

export const tuesday = { id: 'c-1', name: 'Systems, Tuesday' };
export const ada = { id: 'p-ada', kind: 'student', name: 'Ada' };
export const studentMe = { mode: 'classroom', person: ada, class: tuesday, signed_out: null };

/** POST /api/classes/join's answer: the student, with the personal code shown once. */
export const joinedAda = { ...studentMe, personal_code: 'H4KD-P7WQ' };

export function aClass(overrides: Record<string, unknown> = {}) {
  return {
    ...tuesday,
    join_code: 'K7QX-M4TP',
    created_at: '2026-11-24T09:00:00+00:00',
    ended_at: null,
    results_days: 7,
    results_until: null,
    students: 3,
    ...overrides,
  };
}
