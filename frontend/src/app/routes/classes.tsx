import { ClassesPage } from '@/features/people';

export function ClassesRoute() {
  return <ClassesPage />;
}
