import { CourseHome } from '@/features/lessons';
import { useMe } from '@/features/people';

export function HomeRoute() {
  // Who reads says where progress is kept: the server for someone in a class, else this browser.
  const me = useMe();
  return <CourseHome reader={me.isPending ? null : me.data} />;
}
