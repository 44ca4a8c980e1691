import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import './error-boundary.css';

interface ErrorBoundaryProps {
  /** What broke, in words a learner understands ("the QPS chart"). */
  name: string;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** What the learner sees in place of what broke: a function component, so it speaks the
 *  interface's language and follows a switch. */
function ErrorFallback({ name, error, onRetry }: { name: string; error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="danger-box error-boundary" role="alert">
      <strong>{t('errorBoundary.failed', { name })}</strong>
      <p className="error-boundary__message">{error.message}</p>
      <button type="button" className="button button--small" onClick={onRetry}>
        {t('errorBoundary.tryAgain')}
      </button>
    </div>
  );
}

/**
 * Contains a rendering failure to one widget: the rest of the lesson keeps
 * working and the learner sees what broke and can retry.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Keep the details for whoever opens the dev tools.
    console.warn(`[C10K Lab] ${this.props.name} crashed:`, error, info.componentStack);
  }

  private readonly reset = () => {
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <ErrorFallback name={this.props.name} error={error} onRetry={this.reset} />;
  }
}
