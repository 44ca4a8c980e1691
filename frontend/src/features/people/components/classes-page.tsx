import { useId, useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';

import { useClasses, useCreateClass } from '../hooks/use-classes';
import { useMe } from '../hooks/use-me';
import { endsAtFromInput, MAX_CLASS_DAYS, toInputValue } from '../lib/ends-at';
import { MAX_NAME_LENGTH } from '../lib/join-code';
import type { Class } from '../lib/people-schemas';

import { ClassCard } from './class-card';
import { FormError } from './form-error';
import { SoloModeNote } from './solo-mode-note';

import './people.css';

/** /#/classes: an instructor's classes, each with its join code shown large for the projector. */
export function ClassesPage() {
  usePageTitle('Your classes');
  const me = useMe();
  const isInstructor = me.data?.person?.kind === 'instructor';
  const classes = useClasses(isInstructor);

  if (me.isPending) return <Loading />;
  if (me.isError) return <div className="page"><ErrorMessage title="Could not ask who you are." error={me.error} /></div>;
  if (me.data.mode === 'solo') return <SoloModeNote />;
  if (!isInstructor) {
    const person = me.data.person;
    return (
      <div className="page people-page" data-testid="classes-not-instructor" role="status">
        <h1>Classes</h1>
        <p>
          {person
            ? `Only an instructor sees the classes here; you are ${person.name}${me.data.class ? `, a student in ${me.data.class.name}` : ''}.`
            : 'Only an instructor sees the classes here, and nobody is logged in in this browser.'}
        </p>
        <p>
          <Link to="/login">Instructor login</Link>
          {person ? null : (
            <>
              {' · '}
              <Link to="/join">Join a class</Link>
            </>
          )}
          {' · '}
          <Link to="/">Back to the course</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="people-page people-page--wide">
      <h1>Your classes</h1>
      <NewClassForm />
      {classes.isPending ? <Loading label="Loading your classes…" /> : null}
      {classes.isError ? <ErrorMessage title="Your classes could not be loaded." error={classes.error} /> : null}
      {classes.data ? <ClassList classes={classes.data} /> : null}
    </div>
  );
}

function ClassList({ classes }: { classes: Class[] }) {
  if (classes.length === 0) {
    return <p data-testid="no-classes">No classes yet: create one, then show its join code to your students.</p>;
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
  const create = useCreateClass();
  const [name, setName] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const nameId = useId();
  const endsId = useId();
  const endsHelpId = useId();
  // The picker offers what the server accepts: from now to MAX_CLASS_DAYS ahead.
  const now = new Date();
  const min = toInputValue(now);
  const max = toInputValue(new Date(now.getTime() + MAX_CLASS_DAYS * 24 * 3600 * 1000));
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(
      { name, endsAt: endsAtFromInput(endsAt) ?? undefined },
      {
        onSuccess: () => {
          setName('');
          setEndsAt('');
        },
      },
    );
  };
  return (
    <form className="people-form people-form--inline" onSubmit={submit} aria-label="Create a class">
      <label htmlFor={nameId}>New class</label>
      <div className="people-form__row">
        <input
          id={nameId}
          name="name"
          placeholder="e.g. Systems programming, Tuesday"
          required
          maxLength={MAX_NAME_LENGTH}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
          }}
        />
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create class'}
        </button>
      </div>
      <label htmlFor={endsId}>Ends at (optional)</label>
      <input
        id={endsId}
        name="ends_at"
        type="datetime-local"
        min={min}
        max={max}
        value={endsAt}
        aria-describedby={endsHelpId}
        onChange={(e) => {
          setEndsAt(e.target.value);
        }}
      />
      <p className="people-form__help" id={endsHelpId}>
        Your time zone. At that time the class ends by itself: its code stops working and its
        students are signed out. Leave it empty to end the class yourself.
      </p>
      <FormError error={create.error} />
    </form>
  );
}
