import { useState, type SubmitEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { ActionError } from '@/components/action-error';
import { Loading } from '@/components/loading';
import { TextField } from '@/components/text-field';
import { usePageTitle } from '@/hooks/use-page-title';

import { useMe } from '../hooks/use-me';
import { useLogin } from '../hooks/use-session';

import { SoloModeNote } from './solo-mode-note';

import './people.css';

/** /#/login: the instructor's login (name and password); then their classes. */
export function LoginPage() {
  const { t } = useTranslation('people');
  usePageTitle(t('login.title'));
  const me = useMe();
  const loginMutation = useLogin();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');

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
      <h1>{t('login.title')}</h1>
      {current?.kind === 'instructor' ? (
        <p className="people-page__note" data-testid="already-logged-in">
          <Trans t={t} i18nKey="login.already" values={{ name: current.name }} components={{ anchor: <Link to="/classes" /> }} />
        </p>
      ) : null}
      <form className="people-form" onSubmit={submit} aria-label={t('login.title')}>
        <TextField
          label={t('login.name')}
          name="name"
          autoComplete="username"
          required
          value={name}
          onChange={setName}
        />
        <TextField
          label={t('login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={setPassword}
        />
        <ActionError error={loginMutation.error} testId="form-error" />
        <div>
          <button type="submit" className="button button--primary" disabled={loginMutation.isPending}>
            {loginMutation.isPending ? t('login.submitting') : t('login.submit')}
          </button>
        </div>
      </form>
      <p className="people-page__aside">
        <Trans t={t} i18nKey="login.student" components={{ anchor: <Link to="/join" /> }} />
      </p>
    </div>
  );
}
