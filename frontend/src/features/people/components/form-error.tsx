/** The server's sentence for a refused form (wrong password, taken name, ended class…). */
export function FormError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <p className="people-form__error" role="alert" data-testid="form-error">
      {error.message}
    </p>
  );
}
