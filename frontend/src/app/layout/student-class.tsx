import { lazy, Suspense } from 'react';

import { useMe } from '@/features/people';
import { withStrings } from '@/lib/i18n';

// The classroom feature (and, once something is presented, the bench feature's charts) loads
// only for a student in a class: nobody else's first page pays for it.
const ClassFollow = lazy(async () => ({ default: (await withStrings(['classroom'], () => import('./class-follow'))).ClassFollow }));

/** Under the header: a student's class banner and follow panel; nothing for anyone else. */
export function StudentClass() {
  const me = useMe();
  const classId = me.data?.mode === 'classroom' && me.data.person?.kind === 'student' ? (me.data.class?.id ?? null) : null;
  if (classId === null) return null;
  return (
    <Suspense fallback={null}>
      {/* key: another class is another stream. */}
      <ClassFollow key={classId} classId={classId} />
    </Suspense>
  );
}
