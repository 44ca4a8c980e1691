import { LoginPage } from '@/features/people';

export function LoginRoute() {
  return <LoginPage />;
}
