import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

import { ActionError } from '@/components/action-error';
import { Loading } from '@/components/loading';
import { TextField } from '@/components/text-field';
import { usePageTitle } from '@/hooks/use-page-title';

import { useMe } from '../hooks/use-me';
import { useComeBack, useJoin } from '../hooks/use-session';
import { codeFromSearch, MAX_CODE_LENGTH, MAX_NAME_LENGTH } from '../lib/join-code';

import { SoloModeNote } from './solo-mode-note';

import './people.css';

/** The placeholders: what codes look like, the same in every language. */
const CODE_EXAMPLE = 'K7QXM-4TPRW';
const PERSONAL_CODE_EXAMPLE = 'H4KD-P7WQ';

type Way = 'join' | 'come-back';

/**
 * /#/join?code=K7QXM-4TPRW: a student joins a class with its code and a name, and is shown,
 * once, the personal code that brings them back on another device; or, having joined before,
 * comes back with the class's code and that personal code.
 */
export function JoinPage() {
  const { t } = useTranslation('people');
  usePageTitle(t('join.title'));
  const me = useMe();
  const joinMutation = useJoin();
  const [way, setWay] = useState<Way>('join');

  if (me.isPending) return <Loading />;
  if (me.data?.mode === 'solo') return <SoloModeNote />;
  if (joinMutation.data) {
    return <PersonalCodeShownOnce code={joinMutation.data.personal_code} className={joinMutation.data.class?.name ?? ''} />;
  }
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
      ) : null}
      <div className="people-tabs" role="group" aria-label={t('join.ways')}>
        <button type="button" className="button button--small" aria-pressed={way === 'join'} onClick={() => { setWay('join'); }}>
          {t('join.firstTime')}
        </button>
        <button
          type="button"
          className="button button--small"
          aria-pressed={way === 'come-back'}
          onClick={() => { setWay('come-back'); }}
        >
          {t('join.joinedBefore')}
        </button>
      </div>
      {way === 'join' ? <JoinForm joinMutation={joinMutation} /> : <ComeBackForm />}
    </div>
  );
}

/** The join code as typed, pre-filled from the link's ?code=. */
function useCodeField() {
  const [searchParams] = useSearchParams();
  return useState(() => codeFromSearch(searchParams));
}

function CodeField({ code, setCode }: { code: string; setCode: (code: string) => void }) {
  const { t } = useTranslation('people');
  return (
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
  );
}

/** The page holds the mutation: its answer (the personal code) replaces the form. */
function JoinForm({ joinMutation }: { joinMutation: ReturnType<typeof useJoin> }) {
  const { t } = useTranslation('people');
  const [code, setCode] = useCodeField();
  const [name, setName] = useState('');
  const nameHelpId = useId();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    joinMutation.mutate({ code, name });
  };
  return (
    <form className="people-form" onSubmit={submit} aria-label={t('join.title')}>
      <p>{t('join.intro')}</p>
      <CodeField code={code} setCode={setCode} />
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
  );
}

function ComeBackForm() {
  const { t } = useTranslation('people');
  const comeBack = useComeBack();
  const navigate = useNavigate();
  const [code, setCode] = useCodeField();
  const [personalCode, setPersonalCode] = useState('');
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    comeBack.mutate({ code, personalCode }, { onSuccess: () => void navigate('/') });
  };
  return (
    <form className="people-form" onSubmit={submit} aria-label={t('join.comeBackTitle')}>
      <p>{t('join.comeBackIntro')}</p>
      <CodeField code={code} setCode={setCode} />
      <TextField
        label={t('join.personalCode')}
        name="personal_code"
        className="people-form__code"
        placeholder={PERSONAL_CODE_EXAMPLE}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        required
        maxLength={MAX_CODE_LENGTH}
        value={personalCode}
        onChange={(text) => {
          setPersonalCode(text.toUpperCase());
        }}
      />
      <ActionError error={comeBack.error} testId="form-error" />
      <div>
        <button type="submit" className="button button--primary" disabled={comeBack.isPending}>
          {comeBack.isPending ? t('join.comingBack') : t('join.comeBack')}
        </button>
      </div>
    </form>
  );
}

/** Right after joining: the personal code, large, once; the server keeps only its hash. */
function PersonalCodeShownOnce({ code, className }: { code: string; className: string }) {
  const { t } = useTranslation('people');
  const navigate = useNavigate();
  return (
    <div className="page people-page" data-testid="personal-code-page">
      <h1>{t('join.welcome', { className })}</h1>
      <p className="join-code__label">{t('join.yourPersonalCode')}</p>
      <p className="join-code__code people-page__personal-code" data-testid="personal-code">
        {code}
      </p>
      <p>{t('join.personalCodeHelp')}</p>
      <p>
        <button type="button" className="button button--primary" onClick={() => void navigate('/')}>
          {t('join.continue')}
        </button>
      </p>
    </div>
  );
}
