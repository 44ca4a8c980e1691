/** The server's sentence when an action is refused (a class already ended, a run already done…). */
export function ActionError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <p className="class-error" role="alert">
      {error.message}
    </p>
  );
}
