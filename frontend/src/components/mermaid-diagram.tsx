import { useEffect, useState } from 'react';

import { ErrorBoundary } from '@/components/error-boundary';
import { useNearViewport } from '@/hooks/use-near-viewport';
import { mermaidErrorMessage, renderMermaid } from '@/lib/mermaid';

import './mermaid-diagram.css';

type DiagramState =
  | { status: 'rendering' }
  | { status: 'rendered'; svg: string }
  | { status: 'failed'; message: string };

function MermaidSvg({ source }: { source: string }) {
  const [state, setState] = useState<DiagramState>({ status: 'rendering' });
  // Mermaid is ~200 kB gzipped: a lesson fetches it only when a diagram is about to be seen.
  const [ref, near] = useNearViewport<HTMLElement>();

  useEffect(() => {
    if (!near) return;
    let current = true;
    renderMermaid(source).then(
      (svg) => {
        if (current) setState({ status: 'rendered', svg });
      },
      (error: unknown) => {
        if (current) setState({ status: 'failed', message: mermaidErrorMessage(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [source, near]);

  if (state.status === 'failed') {
    return (
      <div className="mermaid-diagram mermaid-diagram--error" role="alert" data-testid="mermaid-error">
        <strong>This diagram could not be drawn.</strong>
        <p className="mermaid-diagram__message">{state.message}</p>
        <pre className="mermaid-diagram__source">
          <code>{source.replace(/\n$/, '')}</code>
        </pre>
      </div>
    );
  }

  const rendered = state.status === 'rendered';
  return (
    <figure
      ref={ref}
      className="mermaid-diagram"
      data-testid="mermaid-diagram"
      data-rendered={rendered ? 'true' : 'false'}
      aria-busy={!rendered}
    >
      {rendered ? (
        // Mermaid's output with securityLevel 'strict': labels sanitised (DOMPurify), no scripts.
        <div className="mermaid-diagram__svg" dangerouslySetInnerHTML={{ __html: state.svg }} />
      ) : (
        <p className="loading" role="status">
          Drawing diagram…
        </p>
      )}
    </figure>
  );
}

/**
 * A ```mermaid block drawn as a diagram, when it comes near the viewport (Mermaid itself
 * is loaded for the first one). A diagram that does not parse shows its error and source,
 * and anything worse stays inside this diagram's own error boundary.
 */
export function MermaidDiagram({ code }: { code: string }) {
  return (
    <ErrorBoundary name="This diagram">
      {/* key: a changed source starts over from "rendering". */}
      <MermaidSvg key={code} source={code} />
    </ErrorBoundary>
  );
}
