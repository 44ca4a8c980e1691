import { act, render, screen, waitFor } from '@testing-library/react';

import { resetMermaidForTests } from '@/lib/mermaid';
import { FakeIntersectionObserver } from '@/testing/fake-intersection-observer';

import { MermaidDiagram } from './mermaid-diagram';

const mermaid = vi.hoisted(() => ({
  initialize: vi.fn(),
  parse: vi.fn(() => Promise.resolve({ diagramType: 'flowchart-v2' })),
  render: vi.fn((id: string) =>
    Promise.resolve({ svg: `<svg id="${id}" role="img"><g><text>epoll_wait</text></g></svg>`, diagramType: 'flowchart-v2' }),
  ),
}));
vi.mock('mermaid', () => ({ default: mermaid }));

const source = 'flowchart TD\n  W["epoll_wait()"] --> L{"next?"}\n';

describe('MermaidDiagram', () => {
  beforeEach(() => {
    resetMermaidForTests();
    vi.clearAllMocks();
  });

  it('loads Mermaid lazily and puts the SVG in a container marked rendered', async () => {
    const errors = vi.spyOn(console, 'error');
    const { container } = render(<MermaidDiagram code={source} />);

    const figure = screen.getByTestId('mermaid-diagram');
    expect(figure).toHaveAttribute('data-rendered', 'false');
    expect(screen.getByRole('status')).toHaveTextContent('Drawing diagram');

    await waitFor(() => {
      expect(figure).toHaveAttribute('data-rendered', 'true');
    });
    expect(figure.querySelector('svg')).not.toBeNull();
    expect(figure).toHaveTextContent('epoll_wait');
    expect(mermaid.render).toHaveBeenCalledWith(expect.any(String), source);
    expect(container.querySelector('[role=alert]')).toBeNull();
    expect(errors).not.toHaveBeenCalled();
  });

  it('shows a readable error with the source when the diagram does not parse', async () => {
    const errors = vi.spyOn(console, 'error');
    mermaid.parse.mockRejectedValueOnce(new Error('Parse error on line 2:\n...A -->\nExpecting NODE_STRING'));
    render(<MermaidDiagram code={'flowchart TD\n  A -->\n'} />);

    const box = await screen.findByTestId('mermaid-error');
    expect(box).toHaveAttribute('role', 'alert');
    expect(box).toHaveTextContent('This diagram could not be drawn.');
    expect(box).toHaveTextContent('Parse error on line 2');
    expect(box.querySelector('pre')).toHaveTextContent('flowchart TD A -->');
    expect(screen.queryByTestId('mermaid-diagram')).not.toBeInTheDocument();
    expect(mermaid.render).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
  });

  it('shows the error box when the Mermaid library itself throws a non-Error', async () => {
    mermaid.render.mockRejectedValueOnce({ str: 'bad', message: 'Lexical error on line 1' });
    render(<MermaidDiagram code="graph" />);
    expect(await screen.findByTestId('mermaid-error')).toHaveTextContent('Lexical error on line 1');
  });

  it('loads Mermaid only when the diagram comes near the viewport', async () => {
    FakeIntersectionObserver.reset();
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    render(<MermaidDiagram code={source} />);

    const figure = screen.getByTestId('mermaid-diagram');
    // Let any promise that would have started rendering settle: none must have.
    await act(() => Promise.resolve());
    expect(mermaid.initialize).not.toHaveBeenCalled();
    expect(figure).toHaveAttribute('data-rendered', 'false');

    act(() => {
      FakeIntersectionObserver.bringNear(figure);
    });
    await waitFor(() => {
      expect(figure).toHaveAttribute('data-rendered', 'true');
    });
    expect(mermaid.render).toHaveBeenCalledTimes(1);
  });
});

/** Every committed drawing (`make diagrams`), read from content/diagrams/. */
async function committedDrawings(): Promise<[string, string][]> {
  interface Fs {
    readdirSync(path: string, options: { recursive: true; encoding: 'utf8' }): string[];
    readFileSync(path: string, encoding: 'utf8'): string;
  }
  const fs = await vi.importActual<Fs>('node:fs');
  const here = decodeURIComponent(import.meta.url.replace(/^file:\/\//, '').replace(/[^/]*$/, ''));
  const root = `${here}../../../content/diagrams/`;
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.svg'))
    .map((file) => [file, fs.readFileSync(root + file, 'utf8')]);
}

/** A style attribute as the CSSOM reads it: React writes styles through it, which respells them. */
function css(style: string): string {
  const probe = document.createElement('div');
  probe.setAttribute('style', style);
  return probe.style.cssText;
}

/** Each element's name and attributes, in document order. */
function shape(svg: Element): string[] {
  return [svg, ...svg.querySelectorAll('*')].map((element) => {
    const attributes = [...element.attributes]
      .map(({ name, value }) => {
        if (name === 'style') return css(value) ? `style=${css(value)}` : '';
        // hast keeps a class list: the spaces between the names are not kept.
        if (name === 'class') return `class=${value.trim().split(/\s+/).join(' ')}`;
        // hast reads data-type as RDFa's `datatype` (property-information); nothing styles it.
        return `${name === 'datatype' ? 'data-type' : name}=${value}`;
      })
      .filter(Boolean)
      .sort();
    return `${element.localName}[${attributes.join(' ')}]`;
  });
}

describe('MermaidDiagram with a committed drawing', () => {
  beforeEach(() => {
    resetMermaidForTests();
    vi.clearAllMocks();
  });

  const drawing =
    '<svg id="c10k-diagram-0123456789ab" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40" role="graphics-document document">' +
    '<style>#c10k-diagram-0123456789ab .node rect{fill:#e8efff;}</style>' +
    '<g class="node"><rect width="80" height="30" x="10" y="5"/>' +
    '<foreignObject width="80" height="30"><div xmlns="http://www.w3.org/1999/xhtml"><span class="nodeLabel"><p>epoll_wait</p></span></div></foreignObject>' +
    '</g></svg>';

  it('shows it at once, scaled to the column, without loading Mermaid', async () => {
    FakeIntersectionObserver.reset();
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    render(<MermaidDiagram code={source} svg={drawing} />);

    const figure = screen.getByTestId('mermaid-diagram');
    expect(figure).toHaveAttribute('data-rendered', 'true');
    expect(figure).toHaveAttribute('data-prerendered', 'true');
    const svg = figure.querySelector('.mermaid-diagram__svg > svg');
    expect(svg).toHaveAttribute('id', 'c10k-diagram-0123456789ab');
    expect(svg).toHaveAttribute('viewBox', '0 0 100 40');
    expect(svg?.querySelector('style')).toHaveTextContent('#c10k-diagram-0123456789ab .node rect');
    expect(figure).toHaveTextContent('epoll_wait');
    await act(() => Promise.resolve());
    expect(mermaid.initialize).not.toHaveBeenCalled();
    expect(mermaid.render).not.toHaveBeenCalled();
  });

  it('keeps scripts, event handlers and links out of it', () => {
    const hostile = drawing
      .replace('<g class="node">', '<script>alert(1)</script><g class="node" onclick="alert(2)">')
      .replace('<p>epoll_wait</p>', '<p>epoll_wait<img src="x" onerror="alert(3)"></p><a href="javascript:alert(4)">go</a>')
      .replace('</svg>', '<a href="https://example.com"><text>out</text></a><iframe src="https://example.com"></iframe></svg>');
    const { container } = render(<MermaidDiagram code={source} svg={hostile} />);
    expect(container.querySelector('script, img, iframe, a, [onclick], [onerror], [href]')).toBeNull();
    expect(container.innerHTML).not.toContain('alert');
    // What is left is the drawing.
    expect(container.querySelector('svg rect')).not.toBeNull();
    expect(screen.getByTestId('mermaid-diagram')).toHaveTextContent('epoll_wait');
  });

  it('shows every committed drawing exactly as drawn: the sanitiser takes nothing out of ours', async () => {
    const errors = vi.spyOn(console, 'error');
    const drawings = await committedDrawings();
    expect(drawings.length).toBeGreaterThan(0);
    for (const [file, svg] of drawings) {
      const { container, unmount } = render(<MermaidDiagram code="" svg={svg} />);
      const shown = container.querySelector('.mermaid-diagram__svg > svg');
      const drawn = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
      expect(shown, file).not.toBeNull();
      const [got, want] = [shape(shown!), shape(drawn)];
      const first = want.findIndex((element, i) => got[i] !== element);
      expect(got[first], `${file}: element ${first}`).toBe(want[first]);
      expect(got.length, file).toBe(want.length);
      expect(shown!.textContent, file).toBe(drawn.textContent);
      unmount();
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it('is drawn by Mermaid in the browser when there is no drawing (a lesson being edited)', async () => {
    render(<MermaidDiagram code={source} svg={undefined} />);
    const figure = screen.getByTestId('mermaid-diagram');
    expect(figure).not.toHaveAttribute('data-prerendered');
    await waitFor(() => {
      expect(figure).toHaveAttribute('data-rendered', 'true');
    });
    expect(mermaid.render).toHaveBeenCalledWith(expect.any(String), source);
  });
});
