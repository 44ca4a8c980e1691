import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { ClassPage } from '@/features/classroom';
import { useMe } from '@/features/people';

/**
 * /#/classes/:id: the class page is its instructor's (the roster and queue are theirs alone);
 * a student who follows a link here is shown the class board instead.
 */
export function ClassRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const me = useMe();
  if (me.isPending) return <Loading />;
  if (me.isError) return <div className="page"><ErrorMessage title={t('app.whoAreYouFailed')} error={me.error} /></div>;
  if (me.data.person?.kind === 'student') return <Navigate to={`/classes/${encodeURIComponent(id)}/board`} replace />;
  // key: another class is another page, with its own stream.
  return <ClassPage key={id} classId={id} />;
}
