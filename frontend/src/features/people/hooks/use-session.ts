import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { LESSON_QUERY_PREFIX } from '@/hooks/use-lesson';

import { comeBack, joinClass, login, logout } from '../api/people';
import type { Me } from '../lib/people-schemas';

import { CLASSES_QUERY_KEY } from './use-classes';
import { ME_QUERY_KEY } from './use-me';

/** What was read as the previous person: their classes, and lessons as they were shown them. */
function forgetThePreviousPerson(client: QueryClient) {
  client.removeQueries({ queryKey: CLASSES_QUERY_KEY });
  client.removeQueries({ queryKey: LESSON_QUERY_PREFIX });
}

/** An instructor logs in; `me` then names them (an instructor belongs to no class). */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, password }: { name: string; password: string }) => login(name, password),
    onSuccess: (person) => {
      client.setQueryData<Me>(ME_QUERY_KEY, { mode: 'classroom', person, class: null, signed_out: null });
      forgetThePreviousPerson(client);
    },
  });
}

/** A student joins a class with its code and a name; the answer is the new `me`, with the
 *  personal code (kept by the mutation, for the page to show once). */
export function useJoin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ code, name }: { code: string; name: string }) => joinClass(code, name),
    onSuccess: ({ personal_code: _shownOnce, ...me }) => {
      client.setQueryData<Me>(ME_QUERY_KEY, me);
      forgetThePreviousPerson(client);
    },
  });
}

/** A student comes back with the class's code and their personal code. */
export function useComeBack() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ code, personalCode }: { code: string; personalCode: string }) => comeBack(code, personalCode),
    onSuccess: (me) => {
      client.setQueryData<Me>(ME_QUERY_KEY, me);
      forgetThePreviousPerson(client);
    },
  });
}

/** Ends this browser's session: nobody is logged in afterwards. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      client.setQueryData<Me>(ME_QUERY_KEY, (me) => ({ mode: me?.mode ?? 'classroom', person: null, class: null, signed_out: null }));
      forgetThePreviousPerson(client);
    },
  });
}
