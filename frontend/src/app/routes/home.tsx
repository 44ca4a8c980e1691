import { CourseHome } from '@/features/lessons';

export function HomeRoute() {
  return <CourseHome />;
}
