import { useTranslation } from 'react-i18next';

interface FailureDetailsProps {
  logs: string[];
}

/** The server's last log lines of a failed run, collapsed by default. */
export function FailureDetails({ logs }: FailureDetailsProps) {
  const { t } = useTranslation('bench');
  if (logs.length === 0) return null;
  return (
    <details className="failure-details" data-testid="failure-logs">
      <summary>{t('failure.serverLog', { count: logs.length })}</summary>
      <pre>{logs.join('\n')}</pre>
    </details>
  );
}
