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
