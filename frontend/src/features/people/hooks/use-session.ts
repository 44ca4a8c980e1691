import { useMutation, useQueryClient } from '@tanstack/react-query';

import { joinClass, login, logout } from '../api/people';
import type { Me } from '../lib/people-schemas';

import { CLASSES_QUERY_KEY } from './use-classes';
import { ME_QUERY_KEY } from './use-me';

/** An instructor logs in; `me` then names them (an instructor belongs to no class). */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, password }: { name: string; password: string }) => login(name, password),
    onSuccess: (person) => {
      client.setQueryData<Me>(ME_QUERY_KEY, { mode: 'classroom', person, class: null });
      client.removeQueries({ queryKey: CLASSES_QUERY_KEY });
    },
  });
}

/** A student joins a class with its code and a name; the answer is the new `me`. */
export function useJoin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ code, name }: { code: string; name: string }) => joinClass(code, name),
    onSuccess: (me) => {
      client.setQueryData<Me>(ME_QUERY_KEY, me);
      client.removeQueries({ queryKey: CLASSES_QUERY_KEY });
    },
  });
}

/** Ends this browser's session: nobody is logged in afterwards. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      client.setQueryData<Me>(ME_QUERY_KEY, (me) => ({ mode: me?.mode ?? 'classroom', person: null, class: null }));
      client.removeQueries({ queryKey: CLASSES_QUERY_KEY });
    },
  });
}
