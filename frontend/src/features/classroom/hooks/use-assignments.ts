import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { exerciseListQuery } from '@/hooks/use-exercises';

import { useLanguage } from '@/hooks/use-language';
import { assign, getAssignments, getGradebook, unassign } from '../api/classroom';
import type { Assignment } from '../lib/classroom-schemas';

import { classKeys } from './use-classroom';

/**
 * Answers are judged a few seconds after they are sent, and the class stream does not say when
 * (it carries the class and what is presented): the instructor's gradebook asks again this
 * often, and only while the page is in view (react-query pauses an interval in a hidden tab).
 */
export const GRADEBOOK_REFRESH_MS = 10_000;

/** `live`: the class has not ended; an ended class's answers change no more. */
export function useGradebook(classId: string, live: boolean) {
  return useQuery({
    queryKey: classKeys.gradebook(classId),
    queryFn: ({ signal }) => getGradebook(classId, signal),
    refetchInterval: live ? GRADEBOOK_REFRESH_MS : false,
  });
}

function judging(assignments: Assignment[] | undefined): boolean {
  return (assignments ?? []).some((a) => a.mine?.status === 'pending');
}

/** The class's assigned exercises, each with the student's own cell: asked again whenever the
 *  page opens (the answers are sent from the exercises' pages), and while one of them is being
 *  judged. */
export function useAssignments(classId: string) {
  return useQuery({
    queryKey: classKeys.assignments(classId),
    queryFn: ({ signal }) => getAssignments(classId, signal),
    staleTime: 0,
    refetchInterval: (query) => (judging(query.state.data) ? GRADEBOOK_REFRESH_MS : false),
  });
}

/** Every exercise of the course (shared with the exercises' pages: one cached answer). */
export function useExerciseList() {
  return useQuery(exerciseListQuery(useLanguage()));
}

/** Assigning or taking an exercise off changes the gradebook's columns: it is read again. */
function useAssignmentChange<V>(classId: string, change: (variables: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: classKeys.gradebook(classId) }),
        client.invalidateQueries({ queryKey: classKeys.assignments(classId) }),
      ]);
    },
  });
}

export interface AssignVariables {
  exercise: string;
  /** ISO 8601 with the browser's offset, or null for no due time. */
  dueAt: string | null;
}

export function useAssign(classId: string) {
  return useAssignmentChange(classId, ({ exercise, dueAt }: AssignVariables) =>
    assign(classId, exercise, dueAt === null ? {} : { due_at: dueAt }),
  );
}

export function useUnassign(classId: string) {
  return useAssignmentChange(classId, (exercise: string) => unassign(classId, exercise));
}
