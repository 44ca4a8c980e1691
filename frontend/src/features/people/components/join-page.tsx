import { useId, useState, type SubmitEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';

import { useMe } from '../hooks/use-me';
import { useJoin } from '../hooks/use-session';
import { codeFromSearch, MAX_CODE_LENGTH, MAX_NAME_LENGTH } from '../lib/join-code';

import { FormError } from './form-error';
import { SoloModeNote } from './solo-mode-note';

import './people.css';

/** /#/join?code=K7QX-M4TP: a student joins a class with its code and a name; then the course. */
export function JoinPage() {
  usePageTitle('Join a class');
  const me = useMe();
  const joinMutation = useJoin();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [code, setCode] = useState(() => codeFromSearch(searchParams));
  const [name, setName] = useState('');
  const codeId = useId();
  const nameId = useId();
  const nameHelpId = useId();

  if (me.isPending) return <Loading />;
  if (me.data?.mode === 'solo') return <SoloModeNote />;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    joinMutation.mutate({ code, name }, { onSuccess: () => void navigate('/') });
  };
  const current = me.data?.person;

  return (
    <div className="page people-page">
      <h1>Join a class</h1>
      {current ? (
        <p className="people-page__note" data-testid="already-joined">
          {current.kind === 'student' && me.data?.class
            ? `You are in ${me.data.class.name} as ${current.name}.`
            : `You are logged in as ${current.name}; joining a class makes this browser a student’s instead.`}
        </p>
      ) : (
        <p>Type the code your instructor shows, and the name the class will know you by.</p>
      )}
      <form className="people-form" onSubmit={submit} aria-label="Join a class">
        <label htmlFor={codeId}>Join code</label>
        <input
          id={codeId}
          name="code"
          className="people-form__code"
          placeholder="K7QX-M4TP"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={MAX_CODE_LENGTH}
          value={code}
          onChange={(e) => {
            setCode(e.target.value.toUpperCase());
          }}
        />
        <label htmlFor={nameId}>Your name</label>
        <input
          id={nameId}
          name="name"
          autoComplete="nickname"
          required
          maxLength={MAX_NAME_LENGTH}
          aria-describedby={nameHelpId}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
          }}
        />
        <p className="people-form__help" id={nameHelpId}>
          Up to {MAX_NAME_LENGTH} characters, and not one someone in the class already uses.
        </p>
        <FormError error={joinMutation.error} />
        <div>
          <button type="submit" className="button button--primary" disabled={joinMutation.isPending}>
            {joinMutation.isPending ? 'Joining…' : 'Join'}
          </button>
        </div>
      </form>
    </div>
  );
}
