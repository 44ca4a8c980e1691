import type { ComponentType, ReactNode } from 'react';
import { Children, isValidElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';

import { CodeBlock } from '@/components/code-block';

import { codeLanguage, hastText, isExternal, lessonHref, slugify } from '../lib/markdown';

/** Components that render special fenced blocks (```experiment, ```source), keyed by language. */
export type FencedBlockRenderers = Record<string, ComponentType<{ code: string }>>;

function textOf(children: ReactNode): string {
  return Children.toArray(children)
    .map((child) => {
      if (typeof child === 'string' || typeof child === 'number') return String(child);
      if (isValidElement<{ children?: ReactNode }>(child)) return textOf(child.props.children);
      return '';
    })
    .join('');
}

function makeComponents(blocks: FencedBlockRenderers): Components {
  return {
    pre({ node, children }) {
      const code = node?.children.find((c) => c.type === 'element' && c.tagName === 'code');
      if (code?.type !== 'element') return <pre>{children}</pre>;
      const language = codeLanguage(code);
      const text = hastText(code);
      const Block = language ? blocks[language] : undefined;
      if (Block) return <Block code={text} />;
      return <CodeBlock code={text} language={language} />;
    },
    a({ href, children }) {
      if (href?.startsWith('#')) {
        // In-page anchor: scroll without touching the (hash-based) route.
        return (
          <a
            href={href}
            onClick={(event) => {
              const target = document.getElementById(decodeURIComponent(href.slice(1)));
              if (!target) return;
              event.preventDefault();
              target.scrollIntoView({ behavior: 'smooth', block: 'start' });
            }}
          >
            {children}
          </a>
        );
      }
      const internal = lessonHref(href);
      if (internal) return <Link to={internal}>{children}</Link>;
      if (isExternal(href)) {
        return (
          <a href={href} target="_blank" rel="noreferrer noopener">
            {children}
          </a>
        );
      }
      return <a href={href}>{children}</a>;
    },
    h2({ children }) {
      return <h2 id={slugify(textOf(children))}>{children}</h2>;
    },
    h3({ children }) {
      return <h3 id={slugify(textOf(children))}>{children}</h3>;
    },
    table({ children }) {
      return (
        <div className="table-scroll">
          <table>{children}</table>
        </div>
      );
    },
  };
}

interface LessonMarkdownProps {
  markdown: string;
  blocks: FencedBlockRenderers;
}

/** Lesson Markdown (GFM) with highlighted code and the special blocks rendered as widgets. */
export function LessonMarkdown({ markdown, blocks }: LessonMarkdownProps) {
  return (
    <div className="prose">
      <Markdown remarkPlugins={[remarkGfm]} components={makeComponents(blocks)}>
        {markdown}
      </Markdown>
    </div>
  );
}
