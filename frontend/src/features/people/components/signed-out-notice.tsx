import { useTranslation } from 'react-i18next';

import { formatDateTime } from '@/lib/dates';

import { useMe } from '../hooks/use-me';
import { useLogout } from '../hooks/use-session';

import './people.css';

/**
 * Under the header, when this browser's session was a student's who may no longer come in:
 * why (removed by the instructor, or the class's results are gone), so that being signed out
 * is never a mystery. OK forgets the dead session, and the notice with it.
 */
export function SignedOutNotice() {
  const { t, i18n } = useTranslation('people');
  const me = useMe();
  const logout = useLogout();
  const why = me.data?.signed_out;
  if (!why) return null;
  const when = (iso: string | null | undefined) => (iso ? formatDateTime(new Date(iso), i18n.resolvedLanguage) : '');
  const text =
    why.reason === 'removed'
      ? t('signedOut.removed', { className: why.class_name, time: when(why.at) })
      : t('signedOut.resultsGone', { className: why.class_name, time: when(why.at), until: when(why.until) });
  return (
    <div className="signed-out-notice" role="alert" aria-label={t('signedOut.label')} data-testid="signed-out-notice">
      <p className="bar-inner signed-out-notice__inner">
        <span>{text}</span>
        <button type="button" className="button button--small" onClick={() => { logout.mutate(); }} disabled={logout.isPending}>
          {t('signedOut.dismiss')}
        </button>
      </p>
    </div>
  );
}
