import { useTranslation } from 'react-i18next';

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {label ?? t('loading')}
    </p>
  );
}

export function ErrorMessage({ title, error }: { title: string; error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="danger-box error-message" role="alert">
      <strong>{title}</strong>
      <p>{message}</p>
    </div>
  );
}
