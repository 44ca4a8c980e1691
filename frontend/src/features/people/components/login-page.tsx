import { useId, useState, type SubmitEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';

import { useMe } from '../hooks/use-me';
import { useLogin } from '../hooks/use-session';

import { FormError } from './form-error';
import { SoloModeNote } from './solo-mode-note';

import './people.css';

/** /#/login: the instructor's login (name and password); then their classes. */
export function LoginPage() {
  usePageTitle('Instructor login');
  const me = useMe();
  const loginMutation = useLogin();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const nameId = useId();
  const passwordId = useId();

  if (me.isPending) return <Loading />;
  if (me.data?.mode === 'solo') return <SoloModeNote />;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    loginMutation.mutate(
      { name, password },
      { onSuccess: () => void navigate('/classes') },
    );
  };
  const current = me.data?.person;

  return (
    <div className="page people-page">
      <h1>Instructor login</h1>
      {current?.kind === 'instructor' ? (
        <p className="people-page__note" data-testid="already-logged-in">
          You are logged in as {current.name}. <Link to="/classes">Your classes →</Link>
        </p>
      ) : null}
      <form className="people-form" onSubmit={submit} aria-label="Instructor login">
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          name="name"
          autoComplete="username"
          required
          value={name}
          onChange={(e) => {
            setName(e.target.value);
          }}
        />
        <label htmlFor={passwordId}>Password</label>
        <input
          id={passwordId}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
          }}
        />
        <FormError error={loginMutation.error} />
        <div>
          <button type="submit" className="button button--primary" disabled={loginMutation.isPending}>
            {loginMutation.isPending ? 'Logging in…' : 'Log in'}
          </button>
        </div>
      </form>
      <p className="people-page__aside">
        A student? <Link to="/join">Join your class</Link> with the code your instructor shows.
      </p>
    </div>
  );
}
