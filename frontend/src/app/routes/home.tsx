import { lazy, Suspense } from 'react';

import { CourseHome } from '@/features/lessons';
import { useMe } from '@/features/people';
import { withStrings } from '@/lib/i18n';

// The classroom feature loads for a student in a class only (as their class banner does).
const AssignedExercises = lazy(async () => ({
  default: (await withStrings(['classroom'], () => import('@/features/classroom'))).AssignedExercises,
}));

export function HomeRoute() {
  // Who reads says where progress is kept: the server for someone in a class, else this browser.
  const me = useMe();
  // A student sees what their instructor assigned; solo mode and instructors have no such list.
  const classId = me.data?.mode === 'classroom' && me.data.person?.kind === 'student' ? (me.data.class?.id ?? null) : null;
  return (
    <CourseHome reader={me.isPending ? null : me.data}>
      {classId === null ? null : (
        <Suspense fallback={null}>
          <AssignedExercises key={classId} classId={classId} />
        </Suspense>
      )}
    </CourseHome>
  );
}
