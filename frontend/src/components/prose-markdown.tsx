import Markdown, { type Components, type Options } from 'react-markdown';

import { codeLanguage, hastText } from '@/lib/markdown';
import { remarkGfmParse } from '@/lib/remark-gfm-parse';

import { CodeBlock } from './code-block';
import { MarkdownLink } from './markdown-link';

const remarkPlugins: Options['remarkPlugins'] = [remarkGfmParse];

const components: Components = {
  a: ({ href, className, children }) => (
    <MarkdownLink href={href} className={className}>
      {children}
    </MarkdownLink>
  ),
  pre({ node, children }) {
    const code = node?.children.find((c) => c.type === 'element' && c.tagName === 'code');
    if (code?.type !== 'element') return <pre>{children}</pre>;
    return <CodeBlock code={hastText(code)} language={codeLanguage(code)} />;
  },
};

/**
 * A short piece of the course's Markdown that is not a lesson (an exercise's statement, a
 * hint): GFM with highlighted code and the course's links, the way lessons read. Raw HTML is
 * not rendered (react-markdown leaves it out), so nothing needs sanitising.
 */
export function ProseMarkdown({ markdown, className = 'prose' }: { markdown: string; className?: string }) {
  return (
    <div className={className}>
      <Markdown remarkPlugins={remarkPlugins} components={components}>
        {markdown}
      </Markdown>
    </div>
  );
}
