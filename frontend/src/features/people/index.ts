// Public API of the people feature: who this browser is, logging in, joining a class, and
// an instructor's classes.
export { AccountNav } from './components/account-nav';
export { ClassesPage } from './components/classes-page';
export { JoinPage } from './components/join-page';
export { LoginPage } from './components/login-page';
export { SignedOutNotice } from './components/signed-out-notice';
export { useMe } from './hooks/use-me';
export { useRunGate } from './hooks/use-run-gate';
export type { RunGate } from './lib/run-gate';
export type { Me, Person } from './lib/people-schemas';
