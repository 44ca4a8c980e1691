import { useMemo } from 'react';

import { highlightToHtml } from '@/lib/highlight';

import './code-block.css';

interface CodeBlockProps {
  code: string;
  language?: string;
  /** File path shown above the code. */
  path?: string;
  /** When set, a line-number gutter starts at this number. */
  startLine?: number;
  /** Optional extra text on the header's right (e.g. "lines 10–40"). */
  note?: string;
}

/** Highlighted, horizontally scrolling code with an optional path header and line numbers. */
export function CodeBlock({ code, language, path, startLine, note }: CodeBlockProps) {
  const text = code.replace(/\n$/, '');
  const html = useMemo(() => highlightToHtml(text, language), [text, language]);
  const lineCount = text.split('\n').length;
  const gutter = useMemo(
    () =>
      startLine === undefined
        ? null
        : Array.from({ length: lineCount }, (_, i) => String(startLine + i)).join('\n'),
    [startLine, lineCount],
  );

  return (
    <div className="code-block">
      {path || note ? (
        <div className="code-block__header">
          {path ? <span className="code-block__path">{path}</span> : null}
          {note ? <span className="code-block__note">{note}</span> : null}
        </div>
      ) : null}
      <div className="code-block__body">
        {gutter !== null ? (
          <pre className="code-block__gutter" aria-hidden="true" data-testid="line-numbers">
            {gutter}
          </pre>
        ) : null}
        <pre className="code-block__code" tabIndex={0}>
          {html !== null ? (
            <code
              className={`hljs language-${language ?? 'plaintext'}`}
              // highlight.js escapes the source; the HTML only adds <span class="hljs-…">.
              dangerouslySetInnerHTML={{ __html: html }}
            />
          ) : (
            <code>{text}</code>
          )}
        </pre>
      </div>
    </div>
  );
}
