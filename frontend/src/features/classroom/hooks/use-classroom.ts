import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useLanguage } from '@/hooks/use-language';
import { lessonListQuery } from '@/hooks/use-lesson';
import type { Class } from '@/lib/api-schemas';
import { endClass } from '@/lib/classes-api';
import { cancelRun } from '@/lib/runs-api';

import {
  getBoard,
  getClass,
  getJoinLinks,
  getQueue,
  getRoster,
  newPersonalCode,
  pauseClass,
  present,
  readmitStudent,
  removeStudent,
  resumeClass,
  setResultsDays,
  stopPresenting,
} from '../api/classroom';
import type { PresentationRequest } from '../lib/classroom-schemas';

/** Who is online and where they are: the instructor watches it while the class works. */
export const ROSTER_REFRESH_MS = 3_000;
/** Runs start and finish every few seconds. */
export const QUEUE_REFRESH_MS = 2_000;
/** New results land on the board as runs finish; every student's board asks too, so not too often. */
export const BOARD_REFRESH_MS = 10_000;

export const classKeys = {
  klass: (id: string) => ['classroom', id, 'class'] as const,
  roster: (id: string) => ['classroom', id, 'roster'] as const,
  queue: (id: string) => ['classroom', id, 'queue'] as const,
  board: (id: string) => ['classroom', id, 'board'] as const,
  assignments: (id: string) => ['classroom', id, 'assignments'] as const,
  gradebook: (id: string) => ['classroom', id, 'gradebook'] as const,
  joinLinks: (id: string) => ['classroom', id, 'join-links'] as const,
};

/** The host's addresses change rarely: asked once a page. */
export function useJoinLinks(id: string, enabled: boolean) {
  return useQuery({
    queryKey: classKeys.joinLinks(id),
    queryFn: ({ signal }) => getJoinLinks(id, signal),
    enabled,
    staleTime: Infinity,
  });
}

export function useClassroomClass(id: string) {
  return useQuery({ queryKey: classKeys.klass(id), queryFn: ({ signal }) => getClass(id, signal) });
}

/** `live`: the class has not ended. An ended class's roster and queue change no more. */
export function useRoster(id: string, live: boolean) {
  const language = useLanguage();
  return useQuery({
    queryKey: [...classKeys.roster(id), language],
    queryFn: ({ signal }) => getRoster(id, language, signal),
    refetchInterval: live ? ROSTER_REFRESH_MS : false,
  });
}

export function useQueue(id: string, live: boolean) {
  return useQuery({
    queryKey: classKeys.queue(id),
    queryFn: ({ signal }) => getQueue(id, signal),
    refetchInterval: live ? QUEUE_REFRESH_MS : false,
  });
}

export function useBoard(id: string) {
  const language = useLanguage();
  return useQuery({
    queryKey: [...classKeys.board(id), language],
    queryFn: ({ signal }) => getBoard(id, language, signal),
    refetchInterval: BOARD_REFRESH_MS,
  });
}

/**
 * The course's lessons (titles for slugs, and how many there are), from the shared query the
 * lessons feature, search and the history use too: one cached answer.
 */
export function useLessonList() {
  return useQuery(lessonListQuery(useLanguage()));
}

/** Pause, resume and end answer with the class: it replaces the page's copy at once. */
function useClassChange(id: string, change: (id: string) => Promise<Class>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => change(id),
    onSuccess: (klass) => {
      client.setQueryData(classKeys.klass(id), klass);
      void client.invalidateQueries({ queryKey: classKeys.queue(id) });
    },
  });
}

export function usePauseClass(id: string) {
  return useClassChange(id, pauseClass);
}

export function useResumeClass(id: string) {
  return useClassChange(id, resumeClass);
}

export function useEndClass(id: string) {
  return useClassChange(id, endClass);
}

export function useRemoveStudent(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (personId: string) => removeStudent(id, personId),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: classKeys.roster(id) });
      void client.invalidateQueries({ queryKey: classKeys.queue(id) });
    },
  });
}

export function useReadmitStudent(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (personId: string) => readmitStudent(id, personId),
    onSuccess: () => void client.invalidateQueries({ queryKey: classKeys.roster(id) }),
  });
}

/** The code is shown to the instructor once, from the mutation's answer. */
export function useNewPersonalCode(id: string) {
  return useMutation({ mutationFn: (personId: string) => newPersonalCode(id, personId) });
}

export function useSetResultsDays(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (days: number) => setResultsDays(id, days),
    onSuccess: (klass) => client.setQueryData(classKeys.klass(id), klass),
  });
}

export function useCancelRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => cancelRun(runId),
    onSuccess: () => void client.invalidateQueries({ queryKey: classKeys.queue(id) }),
  });
}

/** What is presented comes back through the class stream, which every screen of the class follows. */
export function usePresent(id: string) {
  return useMutation({ mutationFn: (body: PresentationRequest) => present(id, body) });
}

export function useStopPresenting(id: string) {
  return useMutation({ mutationFn: () => stopPresenting(id) });
}
