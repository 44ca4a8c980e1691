import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { useMe } from '../hooks/use-me';
import { useLogout } from '../hooks/use-session';

import './people.css';

/**
 * The header's part about who you are, in classroom mode: your name (and a student's class)
 * with Log out, or the ways in when nobody is logged in. Nothing in solo mode, and nothing
 * while `me` is unknown.
 */
export function AccountNav() {
  const { t } = useTranslation('people');
  const me = useMe();
  const logoutMutation = useLogout();
  const navigate = useNavigate();
  if (me.data?.mode !== 'classroom') return null;

  const person = me.data.person;
  if (!person) {
    return (
      <span className="account-nav" data-testid="account-nav">
        <Link to="/join">{t('accountNav.join')}</Link>
        <Link to="/login">{t('accountNav.login')}</Link>
      </span>
    );
  }
  // A student signs out of this browser, not out of the class: they come back with their
  // personal code, which they are reminded of first.
  const student = person.kind === 'student';
  const logOut = () => {
    if (student && !window.confirm(t('accountNav.confirmSignOut'))) return;
    logoutMutation.mutate(undefined, { onSuccess: () => void navigate('/') });
  };
  return (
    <span className="account-nav" data-testid="account-nav">
      <span className="account-nav__who" data-testid="account-name">
        {person.name}
        {person.kind === 'instructor' ? (
          <span className="account-nav__role"> {t('accountNav.instructor')}</span>
        ) : me.data.class ? (
          <span className="account-nav__role"> · {me.data.class.name}</span>
        ) : null}
      </span>
      {person.kind === 'instructor' ? <Link to="/classes">{t('accountNav.yourClasses')}</Link> : null}
      <button type="button" className="button button--small" onClick={logOut} disabled={logoutMutation.isPending}>
        {student ? t('accountNav.signOut') : t('accountNav.logOut')}
      </button>
      {logoutMutation.isError ? (
        <span className="account-nav__error" role="alert">
          {logoutMutation.error.message}
        </span>
      ) : null}
    </span>
  );
}
