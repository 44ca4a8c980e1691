import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ActionError } from '@/components/action-error';
import { ErrorMessage, Loading } from '@/components/loading';
import { TextField } from '@/components/text-field';
import { usePageTitle } from '@/hooks/use-page-title';
import type { Class } from '@/lib/api-schemas';
import { isoFromInput, toInputValue } from '@/lib/dates';

import { useClasses, useCreateClass } from '../hooks/use-classes';
import { useMe } from '../hooks/use-me';
import { MAX_NAME_LENGTH } from '../lib/join-code';

import { ClassCard } from './class-card';
import { SoloModeNote } from './solo-mode-note';

import './people.css';

/** The server accepts an end within this many days. */
const MAX_CLASS_DAYS = 14;
/** How long students keep their results after the class ends, unless the instructor says. */
export const DEFAULT_RESULTS_DAYS = 7;
export const MAX_RESULTS_DAYS = 90;

/** /#/classes: an instructor's classes, each with its join code shown large for the projector. */
export function ClassesPage() {
  const { t } = useTranslation('people');
  usePageTitle(t('classes.title'));
  const me = useMe();
  const isInstructor = me.data?.person?.kind === 'instructor';
  const classes = useClasses(isInstructor);

  if (me.isPending) return <Loading />;
  if (me.isError) return <div className="page"><ErrorMessage title={t('classes.meError')} error={me.error} /></div>;
  if (me.data.mode === 'solo') return <SoloModeNote />;
  if (!isInstructor) {
    const person = me.data.person;
    return (
      <div className="page people-page" data-testid="classes-not-instructor" role="status">
        <h1>{t('classes.notInstructor.heading')}</h1>
        <p>
          {!person
            ? t('classes.notInstructor.nobody')
            : me.data.class
              ? t('classes.notInstructor.student', { name: person.name, className: me.data.class.name })
              : t('classes.notInstructor.person', { name: person.name })}
        </p>
        <p>
          <Link to="/login">{t('classes.notInstructor.login')}</Link>
          {person ? null : (
            <>
              {' · '}
              <Link to="/join">{t('classes.notInstructor.join')}</Link>
            </>
          )}
          {' · '}
          <Link to="/">{t('classes.notInstructor.back')}</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="people-page people-page--wide">
      <h1>{t('classes.title')}</h1>
      <NewClassForm />
      {classes.isPending ? <Loading label={t('classes.loading')} /> : null}
      {classes.isError ? <ErrorMessage title={t('classes.loadError')} error={classes.error} /> : null}
      {classes.data ? <ClassList classes={classes.data} /> : null}
    </div>
  );
}

function ClassList({ classes }: { classes: Class[] }) {
  const { t } = useTranslation('people');
  if (classes.length === 0) {
    return <p data-testid="no-classes">{t('classes.none')}</p>;
  }
  return (
    <ul className="class-list" data-testid="class-list">
      {classes.map((klass) => (
        <li key={klass.id}>
          <ClassCard klass={klass} />
        </li>
      ))}
    </ul>
  );
}

function NewClassForm() {
  const { t } = useTranslation('people');
  const create = useCreateClass();
  const [name, setName] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [resultsDays, setResultsDays] = useState(String(DEFAULT_RESULTS_DAYS));
  const nameId = useId();
  const endsHelpId = useId();
  const resultsHelpId = useId();
  // The picker offers what the server accepts: from now to MAX_CLASS_DAYS ahead.
  const now = new Date();
  const min = toInputValue(now);
  const max = toInputValue(new Date(now.getTime() + MAX_CLASS_DAYS * 24 * 3600 * 1000));
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(
      { name, endsAt: isoFromInput(endsAt) ?? undefined, resultsDays: Number(resultsDays) },
      {
        onSuccess: () => {
          setName('');
          setEndsAt('');
          setResultsDays(String(DEFAULT_RESULTS_DAYS));
        },
      },
    );
  };
  return (
    <form className="people-form people-form--inline" onSubmit={submit} aria-label={t('classes.form.label')}>
      <label htmlFor={nameId}>{t('classes.form.name')}</label>
      <div className="people-form__row">
        <input
          id={nameId}
          name="name"
          placeholder={t('classes.form.namePlaceholder')}
          required
          maxLength={MAX_NAME_LENGTH}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
          }}
        />
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {create.isPending ? t('classes.form.creating') : t('classes.form.create')}
        </button>
      </div>
      <TextField
        label={t('classes.form.endsAt')}
        name="ends_at"
        type="datetime-local"
        min={min}
        max={max}
        value={endsAt}
        aria-describedby={endsHelpId}
        onChange={setEndsAt}
      />
      <p className="people-form__help" id={endsHelpId}>
        {t('classes.form.endsHelp')}
      </p>
      <TextField
        label={t('classes.form.resultsDays')}
        name="results_days"
        type="number"
        min={0}
        max={MAX_RESULTS_DAYS}
        required
        value={resultsDays}
        aria-describedby={resultsHelpId}
        onChange={setResultsDays}
      />
      <p className="people-form__help" id={resultsHelpId}>
        {t('classes.form.resultsHelp', { max: MAX_RESULTS_DAYS })}
      </p>
      <ActionError error={create.error} testId="form-error" />
    </form>
  );
}
