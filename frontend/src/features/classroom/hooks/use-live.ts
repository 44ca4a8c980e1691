import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useLanguage } from '@/hooks/use-language';

import {
  announce,
  answerQuestion,
  getLive,
  getMyHand,
  getQuestions,
  lowerHand,
  lowerMyHand,
  raiseHand,
  revealQuestion,
  startTimer,
  stopTimer,
} from '../api/classroom';

import { classKeys } from './use-classroom';

/** Answers come in while the instructor looks at a question: asked again this often. */
export const ANSWERS_REFRESH_MS = 2_000;

export const liveKeys = {
  live: (id: string) => ['classroom', id, 'live'] as const,
  hand: (id: string) => ['classroom', id, 'hand'] as const,
  questions: (id: string, lesson: string) => ['classroom', id, 'questions', lesson] as const,
};

/** The timer, announcements and revealed questions, for a page without the class stream. */
export function useLive(id: string) {
  return useQuery({ queryKey: liveKeys.live(id), queryFn: ({ signal }) => getLive(id, signal) });
}

/** A student's own hand, and raising or lowering it. */
export function useMyHand(id: string) {
  const client = useQueryClient();
  const language = useLanguage();
  const key = [...liveKeys.hand(id), language];
  const hand = useQuery({ queryKey: key, queryFn: ({ signal }) => getMyHand(id, language, signal) });
  const raise = useMutation({
    mutationFn: (where: { lesson?: string; experiment?: string }) => raiseHand(id, where, language),
    onSuccess: (up) => client.setQueryData(key, up),
  });
  const lower = useMutation({
    mutationFn: () => lowerMyHand(id),
    // Down in every language's entry, not only this one's.
    onSuccess: () => client.setQueriesData({ queryKey: liveKeys.hand(id) }, null),
  });
  return { hand, raise, lower };
}

/** The instructor lowers a student's hand; the roster shows it down at once. */
export function useLowerHand(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (personId: string) => lowerHand(id, personId),
    onSuccess: () => void client.invalidateQueries({ queryKey: classKeys.roster(id) }),
  });
}

/** The instructor's timer and announcements: the class stream brings them back to every page. */
export function useLiveControls(id: string) {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: liveKeys.live(id) });
  const start = useMutation({
    mutationFn: ({ minutes, label }: { minutes: number; label: string }) => startTimer(id, minutes, label),
    onSuccess: refresh,
  });
  const stop = useMutation({ mutationFn: () => stopTimer(id), onSuccess: refresh });
  const send = useMutation({ mutationFn: (text: string) => announce(id, text), onSuccess: refresh });
  return { start, stop, send };
}

/**
 * A lesson's questions in the class. The instructor's view follows the answers as they come;
 * a student's is their own, asked once.
 */
export function useQuestions(id: string, lesson: string, live: boolean) {
  return useQuery({
    queryKey: liveKeys.questions(id, lesson),
    queryFn: ({ signal }) => getQuestions(id, lesson, signal),
    refetchInterval: live ? ANSWERS_REFRESH_MS : false,
  });
}

export function useAnswerQuestion(id: string, lesson: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ question, answer }: { question: number; answer: string }) => answerQuestion(id, lesson, question, answer),
    onSuccess: (questions) => client.setQueryData(liveKeys.questions(id, lesson), questions),
  });
}

export function useRevealQuestion(id: string, lesson: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ question, revealed }: { question: number; revealed: boolean }) => revealQuestion(id, lesson, question, revealed),
    onSuccess: (questions) => client.setQueryData(liveKeys.questions(id, lesson), questions),
  });
}

