import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

import { ActionError } from '@/components/action-error';
import { Loading } from '@/components/loading';
import { TextField } from '@/components/text-field';
import { usePageTitle } from '@/hooks/use-page-title';

import { useMe } from '../hooks/use-me';
import { useJoin } from '../hooks/use-session';
import { codeFromSearch, MAX_CODE_LENGTH, MAX_NAME_LENGTH } from '../lib/join-code';

import { SoloModeNote } from './solo-mode-note';

import './people.css';

/** The placeholder: what a code looks like, the same in every language. */
const CODE_EXAMPLE = 'K7QXM-4TPRW';

/** /#/join?code=K7QXM-4TPRW: a student joins a class with its code and a name; then the course. */
export function JoinPage() {
  const { t } = useTranslation('people');
  usePageTitle(t('join.title'));
  const me = useMe();
  const joinMutation = useJoin();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [code, setCode] = useState(() => codeFromSearch(searchParams));
  const [name, setName] = useState('');
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
      <h1>{t('join.title')}</h1>
      {current ? (
        <p className="people-page__note" data-testid="already-joined">
          {current.kind === 'student' && me.data?.class
            ? t('join.inClass', { className: me.data.class.name, name: current.name })
            : t('join.loggedInAs', { name: current.name })}
        </p>
      ) : (
        <p>{t('join.intro')}</p>
      )}
      <form className="people-form" onSubmit={submit} aria-label={t('join.title')}>
        <TextField
          label={t('join.code')}
          name="code"
          className="people-form__code"
          placeholder={CODE_EXAMPLE}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={MAX_CODE_LENGTH}
          value={code}
          onChange={(text) => {
            setCode(text.toUpperCase());
          }}
        />
        <TextField
          label={t('join.name')}
          name="name"
          autoComplete="nickname"
          required
          maxLength={MAX_NAME_LENGTH}
          aria-describedby={nameHelpId}
          value={name}
          onChange={setName}
        />
        <p className="people-form__help" id={nameHelpId}>
          {t('join.nameHelp', { max: MAX_NAME_LENGTH })}
        </p>
        <ActionError error={joinMutation.error} testId="form-error" />
        <div>
          <button type="submit" className="button button--primary" disabled={joinMutation.isPending}>
            {joinMutation.isPending ? t('join.submitting') : t('join.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
