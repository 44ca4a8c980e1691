interface FailureDetailsProps {
  logs: string[];
}

/** The server's last log lines of a failed run, collapsed by default. */
export function FailureDetails({ logs }: FailureDetailsProps) {
  if (logs.length === 0) return null;
  return (
    <details className="failure-details" data-testid="failure-logs">
      <summary>
        Server log (last {logs.length} line{logs.length === 1 ? '' : 's'})
      </summary>
      <pre>{logs.join('\n')}</pre>
    </details>
  );
}
