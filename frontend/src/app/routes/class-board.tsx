import { useParams } from 'react-router';

import { ClassBoardPage } from '@/features/classroom';
import { useMe } from '@/features/people';

/** /#/classes/:id/board: read-only for students; the instructor may spotlight from it too. */
export function ClassBoardRoute() {
  const { id = '' } = useParams();
  const me = useMe();
  return <ClassBoardPage key={id} classId={id} canSpotlight={me.data?.person?.kind === 'instructor'} />;
}
