import type { Root } from 'hast';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';

import { ErrorBoundary } from '@/components/error-boundary';
import { useNearViewport } from '@/hooks/use-near-viewport';
import { drawnDiagramSchema, mermaidErrorMessage, renderMermaid } from '@/lib/mermaid';
import { rehypeNativeRaw } from '@/lib/rehype-native-raw';

import './mermaid-diagram.css';

type DiagramState =
  | { status: 'rendering' }
  | { status: 'rendered'; svg: string }
  | { status: 'failed'; message: string | null };

function MermaidSvg({ source }: { source: string }) {
  const { t } = useTranslation();
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
        <strong>{t('mermaid.failed')}</strong>
        <p className="mermaid-diagram__message">{state.message ?? t('unknownError')}</p>
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
          {t('mermaid.drawing')}
        </p>
      )}
    </figure>
  );
}

/** rehype plugin: the tree becomes the given SVG, as raw HTML for the next step to parse. */
function drawnSvg(svg: string) {
  return (): Root => ({ type: 'root', children: [{ type: 'raw', value: svg }] });
}

/**
 * A diagram drawn by `make diagrams`, put in the page without Mermaid. It passes through the
 * lessons' own HTML pipeline (parsed by the browser, then rehype-sanitize with the diagrams'
 * schema, then React elements): its SVG comes from our committed files, and still cannot
 * bring a script in.
 */
function DrawnSvg({ svg }: { svg: string }) {
  const drawing = useMemo(() => {
    const plugins: Options['rehypePlugins'] = [[drawnSvg, svg], rehypeNativeRaw, [rehypeSanitize, drawnDiagramSchema]];
    return <Markdown rehypePlugins={plugins}>{''}</Markdown>;
  }, [svg]);
  return (
    <figure className="mermaid-diagram" data-testid="mermaid-diagram" data-rendered="true" data-prerendered="true">
      <div className="mermaid-diagram__svg">{drawing}</div>
    </figure>
  );
}

/**
 * A ```mermaid block as a diagram: the drawing `make diagrams` committed for its exact text
 * (`svg`) when there is one, shown at once with no Mermaid at all; otherwise (a lesson being
 * edited) drawn by Mermaid in the browser when it comes near the viewport (Mermaid itself is
 * loaded for the first one). A diagram that does not parse shows its error and source, and
 * anything worse stays inside this diagram's own error boundary.
 */
export function MermaidDiagram({ code, svg }: { code: string; svg?: string | undefined }) {
  const { t } = useTranslation();
  return (
    <ErrorBoundary name={t('mermaid.name')}>
      {/* key: a changed source starts over from "rendering". */}
      {svg ? <DrawnSvg svg={svg} /> : <MermaidSvg key={code} source={code} />}
    </ErrorBoundary>
  );
}
