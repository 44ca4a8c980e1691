/**
 * GitHub Flavored Markdown (tables, strikethrough, task lists, autolinks, footnotes) for
 * reading only. remark-gfm registers three things: micromark's syntax, the mdast built from
 * it, and how to write that mdast back out as Markdown. The course never writes Markdown, and
 * the writer (mdast-util-to-markdown and the GFM tables' formatter) was 7 kB of a lesson's
 * first load; this plugin is remark-gfm's first two steps, the same tree.
 */
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** Where a unified processor keeps the extensions remark-parse reads (remark-parse's `Data`). */
interface ReadingData {
  micromarkExtensions?: ReturnType<typeof gfm>[];
  fromMarkdownExtensions?: ReturnType<typeof gfmFromMarkdown>[];
}

/** unified plugin: GFM's syntax and its mdast, nothing to write Markdown with. */
export function remarkGfmParse(this: { data: () => unknown }) {
  const data = this.data() as ReadingData;
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
}
