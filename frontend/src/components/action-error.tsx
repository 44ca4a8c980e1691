import './action-error.css';

/** The server's sentence when an action or a form is refused (a class already ended, a run
 *  already done, a wrong password, a name already taken…). */
export function ActionError({ error, testId }: { error: Error | null; testId?: string }) {
  if (!error) return null;
  return (
    <p className="danger-box danger-box--small action-error" role="alert" data-testid={testId}>
      {error.message}
    </p>
  );
}
