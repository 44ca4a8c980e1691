import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';

import { resetMermaidForTests } from '@/lib/mermaid';

import { LessonMarkdown, type FencedBlockRenderers } from './lesson-markdown';

const mermaid = vi.hoisted(() => ({
  initialize: vi.fn(),
  parse: vi.fn(() => Promise.resolve({ diagramType: 'flowchart-v2' })),
  render: vi.fn((id: string) => Promise.resolve({ svg: `<svg id="${id}"><text>loop</text></svg>`, diagramType: 'flowchart-v2' })),
}));
vi.mock('mermaid', () => ({ default: mermaid }));

const blocks: FencedBlockRenderers = {};

function renderMarkdown(markdown: string, showSpeakerNotes?: boolean) {
  return render(
    <MemoryRouter>
      <LessonMarkdown markdown={markdown} blocks={blocks} showSpeakerNotes={showSpeakerNotes} />
    </MemoryRouter>,
  );
}

const checkYourself = `## Check yourself

1. Is \`select\`'s limit enforced by the kernel?

   <details><summary>Answer</summary>

   No. It is glibc's fixed \`fd_set\`:

   - \`FD_SETSIZE\` = 1,024 bits;
   - \`FD_SET\` past it writes out of bounds.

   \`\`\`c
   int fd = 1024;
   \`\`\`

   </details>

<details class="speaker-notes"><summary>Speaker notes</summary>

- Ask the room **where** the bottleneck was.

</details>
`;

describe('LessonMarkdown raw HTML', () => {
  it('renders <details> answers as elements, with Markdown inside, revealed on click', async () => {
    const { container } = renderMarkdown(checkYourself);

    expect(container).not.toHaveTextContent('<details');
    expect(container).not.toHaveTextContent('<summary');
    const details = container.querySelector('details.disclosure')!;
    expect(details).not.toBeNull();
    expect(details).not.toHaveAttribute('open');
    const summary = within(details as HTMLElement).getByText('Answer');
    expect(summary.tagName).toBe('SUMMARY');
    // Markdown inside the details still renders: a list, inline code and a highlighted block.
    expect(details.querySelectorAll(':scope li')).toHaveLength(2);
    expect(details.querySelector(':scope li code')).toHaveTextContent('FD_SETSIZE');
    expect(details.querySelector('.code-block code.language-c .hljs-type')).toHaveTextContent('int');

    await userEvent.click(summary);
    expect(details).toHaveAttribute('open');
  });

  it('strips scripts, event handlers, javascript: links and unknown classes', () => {
    const { container } = renderMarkdown(`Before.

<script>window.hacked = true</script>

<img src="x.png" onerror="window.hacked = true" alt="a picture">

<a href="javascript:alert(1)" onclick="alert(2)">click me</a>

<details class="evil" onclick="alert(3)" style="position:fixed"><summary onmouseover="alert(4)">More</summary>

text

</details>

<iframe src="https://example.com"></iframe>

After.
`);

    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('iframe')).toBeNull();
    expect(container.innerHTML).not.toMatch(/onerror|onclick|onmouseover|javascript:|hacked|style=/i);
    const img = container.querySelector('img')!;
    expect(img).toHaveAttribute('alt', 'a picture');
    expect(img).not.toHaveAttribute('onerror');
    expect(screen.getByText('click me')).not.toHaveAttribute('href');
    const details = container.querySelector('details')!;
    expect(details.className).toBe('disclosure');
    expect(container).toHaveTextContent('Before.');
    expect(container).toHaveTextContent('After.');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('keeps speaker notes out of the DOM unless instructor mode is on', () => {
    const { container, unmount } = renderMarkdown(checkYourself);
    expect(screen.queryByTestId('speaker-notes')).not.toBeInTheDocument();
    expect(container).not.toHaveTextContent('Speaker notes');
    expect(container).not.toHaveTextContent('where the bottleneck was');
    unmount();

    renderMarkdown(checkYourself, true);
    const notes = screen.getByTestId('speaker-notes');
    expect(notes.tagName).toBe('DETAILS');
    expect(notes).toHaveClass('speaker-notes');
    expect(within(notes).getByText('Speaker notes').tagName).toBe('SUMMARY');
    expect(within(notes).getByText('where').tagName).toBe('STRONG');
  });

  it('puts the class’s renderer at each question the server marked, and no other div’s content', () => {
    const marked = [
      '1. Is the limit the kernel’s?',
      '',
      '   <div class="class-question" data-question="1"></div>',
      '',
      '<div class="class-question" data-question="x"></div>',
      '<div class="other">plain</div>',
    ].join('\n');
    render(
      <MemoryRouter>
        <LessonMarkdown
          markdown={marked}
          blocks={blocks}
          classQuestion={(question) => <p data-testid="class-question">question {question}</p>}
        />
      </MemoryRouter>,
    );
    expect(screen.getAllByTestId('class-question').map((q) => q.textContent)).toEqual(['question 1']);
    expect(screen.getByText('plain')).toBeInTheDocument();
  });
});

describe('LessonMarkdown mermaid blocks', () => {
  beforeEach(() => {
    resetMermaidForTests();
    vi.clearAllMocks();
  });

  const diagram = 'flowchart TD\n    W["epoll_wait()"] --> L{"next ready socket?"}\n    L -->|"none left"| W\n';

  it('hands a ```mermaid block to the lazily loaded renderer', async () => {
    const { container } = renderMarkdown(`Intro.\n\n\`\`\`mermaid\n${diagram}\`\`\`\n`);
    const figure = screen.getByTestId('mermaid-diagram');
    await waitFor(() => {
      expect(figure).toHaveAttribute('data-rendered', 'true');
    });
    expect(mermaid.initialize).toHaveBeenCalledTimes(1);
    expect(mermaid.render).toHaveBeenCalledWith(expect.any(String), diagram);
    expect(figure.querySelector('svg')).not.toBeNull();
    // Not shown as a code block.
    expect(container.querySelector('code.language-mermaid')).toBeNull();
  });

  it('shows an error box with the source for a diagram that does not parse, and the rest of the lesson', async () => {
    mermaid.parse.mockRejectedValueOnce(new Error('Parse error on line 2: Expecting NODE_STRING'));
    renderMarkdown('Before.\n\n```mermaid\nflowchart TD\n  A -->\n```\n\nAfter.\n');
    const box = await screen.findByTestId('mermaid-error');
    expect(box).toHaveTextContent('Parse error on line 2');
    expect(box).toHaveTextContent('A -->');
    expect(screen.getByText('Before.')).toBeInTheDocument();
    expect(screen.getByText('After.')).toBeInTheDocument();
  });

  it('shows the committed drawing of a block with its exact text, and draws the others with Mermaid', async () => {
    const drawn = 'flowchart LR\n  A[accept] --> B[read]';
    const diagrams = [{ source: drawn, svg: '<svg id="c10k-diagram-aaaaaaaaaaaa"><text>committed</text></svg>' }];
    render(
      <MemoryRouter>
        <LessonMarkdown
          markdown={`\`\`\`mermaid\n${drawn}\n\`\`\`\n\n\`\`\`mermaid\n${drawn.replace('read', 'recv')}\n\`\`\`\n`}
          blocks={blocks}
          diagrams={diagrams}
        />
      </MemoryRouter>,
    );
    const [committed, edited] = screen.getAllByTestId('mermaid-diagram');
    expect(committed).toHaveAttribute('data-prerendered', 'true');
    expect(committed?.querySelector('svg')).toHaveAttribute('id', 'c10k-diagram-aaaaaaaaaaaa');
    // The edited block has no drawing of its own text: Mermaid draws it, and only it.
    expect(edited).not.toHaveAttribute('data-prerendered');
    await waitFor(() => {
      expect(edited).toHaveAttribute('data-rendered', 'true');
    });
    expect(mermaid.render).toHaveBeenCalledTimes(1);
    expect(mermaid.render).toHaveBeenCalledWith(expect.any(String), `${drawn.replace('read', 'recv')}\n`);
  });

  it('lets a lesson-specific renderer override the built-in one', () => {
    render(
      <MemoryRouter>
        <LessonMarkdown markdown={'```mermaid\ngraph TD\n```\n'} blocks={{ mermaid: () => <p>custom diagram</p> }} />
      </MemoryRouter>,
    );
    expect(screen.getByText('custom diagram')).toBeInTheDocument();
    expect(mermaid.render).not.toHaveBeenCalled();
  });
});

describe('LessonMarkdown glossary links', () => {
  const markdown = [
    '## The event loop',
    '',
    'An event loop waits; the event loop again. A `select` call, then select.',
    '',
    '| Server | Event loop |',
    '| --- | --- |',
    '| c-epoll | yes |',
  ].join('\n');

  it('links the first mention of each term in the prose to its glossary entry', () => {
    render(
      <MemoryRouter>
        <LessonMarkdown markdown={markdown} blocks={blocks} glossaryTerms={['Event loop', 'select']} />
      </MemoryRouter>,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.className])).toEqual([
      ['event loop', '/glossary#event-loop', 'glossary-link'],
      ['select', '/glossary#select', 'glossary-link'],
    ]);
    expect(screen.getByRole('heading', { name: 'The event loop' })).not.toContainElement(links[0]!);
  });

  it('links nothing without the glossary (the glossary page itself, or it failed to load)', () => {
    renderMarkdown(markdown);
    expect(screen.queryAllByRole('link')).toEqual([]);
  });

  it('puts a table in a box of its own that scrolls sideways and takes keyboard focus', () => {
    renderMarkdown(markdown);
    const box = screen.getByRole('group', { name: 'Table, scrolls sideways' });
    expect(box).toHaveAttribute('tabindex', '0');
    expect(box).toContainElement(screen.getByRole('table'));
  });
});
