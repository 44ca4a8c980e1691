import { useParams } from 'react-router';

import { ExerciseIndex, ExercisePage } from '@/features/edit';

/** /#/exercises: every exercise under its lesson, with this browser's status. */
export function ExercisesRoute() {
  return <ExerciseIndex />;
}

/** /#/exercises/:slug: one exercise, answered in the editor. */
export function ExerciseRoute() {
  const { slug = '' } = useParams();
  return <ExercisePage key={slug} slug={slug} />;
}
