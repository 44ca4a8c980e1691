import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { isExternal, lessonHref } from '@/lib/markdown';

interface MarkdownLinkProps {
  href?: string;
  className?: string;
  children?: ReactNode;
}

/**
 * A link of the course's Markdown (react-markdown's `a`): an in-page anchor scrolls without
 * touching the hash route, a lesson's or the glossary's file becomes its route, and another
 * site opens in a new tab.
 */
export function MarkdownLink({ href, className, children }: MarkdownLinkProps) {
  if (href?.startsWith('#')) {
    return (
      <a
        href={href}
        className={className}
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
  if (internal) {
    return (
      <Link to={internal} className={className}>
        {children}
      </Link>
    );
  }
  if (isExternal(href)) {
    return (
      <a href={href} className={className} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  }
  return (
    <a href={href} className={className}>
      {children}
    </a>
  );
}
