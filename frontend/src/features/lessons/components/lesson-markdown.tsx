import type { ComponentPropsWithoutRef, ComponentType, ReactNode } from 'react';
import { Children, createContext, isValidElement, use, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components, type Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';

import { CodeBlock } from '@/components/code-block';
import { MarkdownLink } from '@/components/markdown-link';
import { MermaidDiagram } from '@/components/mermaid-diagram';
import type { Diagram } from '@/lib/api-schemas';
import { codeLanguage, hastText, slugify } from '@/lib/markdown';
import { rehypeNativeRaw } from '@/lib/rehype-native-raw';
import { remarkGfmParse } from '@/lib/remark-gfm-parse';

import { GlossaryMarkdownContext } from '../lib/glossary-entry';
import { GLOSSARY_LINK_CLASS, rehypeGlossaryLinks } from '../lib/glossary-links';
import { CLASS_QUESTION_CLASS, lessonSanitizeSchema, SPEAKER_NOTES_CLASS } from '../lib/sanitize-schema';

import { GlossaryTermLink } from './glossary-term-link';

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

const remarkPlugins: Options['remarkPlugins'] = [remarkGfmParse];

/**
 * Raw HTML in lessons (<details> answers, speaker notes) is parsed, then sanitised; then the
 * first mention of each glossary term becomes a link to its entry.
 */
function rehypePluginsFor(glossaryTerms: readonly string[]): Options['rehypePlugins'] {
  return [rehypeNativeRaw, [rehypeSanitize, lessonSanitizeSchema], [rehypeGlossaryLinks, { terms: glossaryTerms }]];
}

/** The lesson's drawn diagrams (`make diagrams`), by the trimmed text of their block. */
const DiagramsContext = createContext<ReadonlyMap<string, string>>(new Map());

/** A ```mermaid block: its committed drawing when there is one for its exact text. */
function LessonDiagram({ code }: { code: string }) {
  return <MermaidDiagram code={code} svg={use(DiagramsContext).get(code.trim())} />;
}

/** What a class shows at a question of Check yourself (the app's: the classroom feature's). */
export type ClassQuestionRenderer = (question: number) => ReactNode;

/** The page's class-question renderer; none outside a class. */
const ClassQuestionContext = createContext<ClassQuestionRenderer | null>(null);

type DivProps = ComponentPropsWithoutRef<'div'> & { node?: { properties?: Record<string, unknown> } };

/** `<div class="class-question" data-question="N">`: the class's answers to question N, where
 *  the app says; any other div as it is. */
function LessonDiv({ node, className, ...rest }: DivProps) {
  const renderQuestion = use(ClassQuestionContext);
  if (!className?.split(/\s+/).includes(CLASS_QUESTION_CLASS)) return <div className={className} {...rest} />;
  const number = Number(node?.properties?.dataQuestion);
  if (!renderQuestion || !Number.isInteger(number)) return null;
  return renderQuestion(number);
}

/** Fenced blocks every lesson understands; `blocks` may add more (or override these). */
const builtinBlocks: FencedBlockRenderers = {
  mermaid: LessonDiagram,
};

/** Whether speaker notes are shown; a context, so toggling it re-renders only the notes. */
const SpeakerNotesContext = createContext(false);

type DetailsProps = ComponentPropsWithoutRef<'details'> & { node?: unknown };

/** `<details>`: an answer to reveal, or (class "speaker-notes") notes only instructors see. */
function LessonDetails({ node: _node, className, children, ...rest }: DetailsProps) {
  const showSpeakerNotes = use(SpeakerNotesContext);
  const speakerNotes = className?.split(/\s+/).includes(SPEAKER_NOTES_CLASS) ?? false;
  if (!speakerNotes) {
    return (
      <details className="disclosure" {...rest}>
        {children}
      </details>
    );
  }
  // Speaker notes are for instructors: for learners they are not even in the DOM.
  if (!showSpeakerNotes) return null;
  return (
    <details className={`disclosure ${SPEAKER_NOTES_CLASS}`} data-testid="speaker-notes" {...rest}>
      {children}
    </details>
  );
}

/**
 * A wide table scrolls in its own box, which the keyboard can reach and scroll too. A group,
 * not a region: a page of like-named landmarks would be no help to find one's way. Its own
 * component, so its name follows a language switch without the lesson being parsed again.
 */
function ScrollingTable({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('lessons');
  return (
    <div className="table-scroll" tabIndex={0} role="group" aria-label={t('page.tableLabel')}>
      <table>{children}</table>
    </div>
  );
}

function makeComponents(blocks: FencedBlockRenderers): Components {
  return {
    pre({ node, children }) {
      const code = node?.children.find((c) => c.type === 'element' && c.tagName === 'code');
      if (code?.type !== 'element') return <pre>{children}</pre>;
      const language = codeLanguage(code);
      const text = hastText(code);
      const Block = language ? (blocks[language] ?? builtinBlocks[language]) : undefined;
      if (Block) return <Block code={text} />;
      return <CodeBlock code={text} language={language} />;
    },
    details: LessonDetails,
    div: LessonDiv,
    a({ href, className, children }) {
      // A term the glossary plugin linked: previewed in place.
      const term = className?.split(' ').includes(GLOSSARY_LINK_CLASS) ? href?.split('#')[1] : undefined;
      if (term) {
        return (
          <GlossaryTermLink anchor={decodeURIComponent(term)} className={className}>
            {children}
          </GlossaryTermLink>
        );
      }
      return (
        <MarkdownLink href={href} className={className}>
          {children}
        </MarkdownLink>
      );
    },
    h2({ children }) {
      return <h2 id={slugify(textOf(children))}>{children}</h2>;
    },
    h3({ children }) {
      return <h3 id={slugify(textOf(children))}>{children}</h3>;
    },
    table: ScrollingTable,
  };
}

const NO_DIAGRAMS: readonly Diagram[] = [];
const NO_TERMS: readonly string[] = [];

interface LessonMarkdownProps {
  markdown: string;
  blocks: FencedBlockRenderers;
  /** Drawings of its ```mermaid blocks, shown instead of loading Mermaid; the rest are drawn here. */
  diagrams?: readonly Diagram[];
  /** Render `<details class="speaker-notes">` (instructor mode); hidden otherwise. */
  showSpeakerNotes?: boolean;
  /** The glossary's terms: the first mention of each in the prose links to its entry. */
  glossaryTerms?: readonly string[];
  /** The glossary's Markdown: a linked term previews its entry in place. */
  glossaryMarkdown?: string | null | undefined;
  /** In a class: what stands at each question of Check yourself (its answers, the reveal). */
  classQuestion?: ClassQuestionRenderer | null;
}

/**
 * Lesson Markdown (GFM plus sanitised raw HTML) with highlighted code, Mermaid
 * diagrams, and the special blocks rendered as widgets.
 */
export function LessonMarkdown({
  markdown,
  blocks,
  diagrams = NO_DIAGRAMS,
  showSpeakerNotes = false,
  glossaryTerms = NO_TERMS,
  glossaryMarkdown = null,
  classQuestion = null,
}: LessonMarkdownProps) {
  // Stable component identities: new ones would remount every widget on each render.
  const components = useMemo(() => makeComponents(blocks), [blocks]);
  const drawings = useMemo(() => new Map(diagrams.map((d) => [d.source, d.svg])), [diagrams]);
  // The same element while the text (and the glossary) is the same: the page re-rendering (progress, instructor
  // mode) neither re-parses the lesson nor re-renders it, except the speaker notes via context.
  const rehypePlugins = useMemo(() => rehypePluginsFor(glossaryTerms), [glossaryTerms]);
  const content = useMemo(
    () => (
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {markdown}
      </Markdown>
    ),
    [markdown, components, rehypePlugins],
  );
  return (
    <div className="prose">
      <DiagramsContext value={drawings}>
        <ClassQuestionContext value={classQuestion}>
          <SpeakerNotesContext value={showSpeakerNotes}>
            <GlossaryMarkdownContext value={glossaryMarkdown}>{content}</GlossaryMarkdownContext>
          </SpeakerNotesContext>
        </ClassQuestionContext>
      </DiagramsContext>
    </div>
  );
}
