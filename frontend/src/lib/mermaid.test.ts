import { drawnDiagramSchema, loadMermaid, mermaidErrorMessage, renderMermaid, resetMermaidForTests } from './mermaid';

const mermaid = vi.hoisted(() => ({
  initialize: vi.fn(),
  parse: vi.fn(() => Promise.resolve({ diagramType: 'flowchart-v2' })),
  render: vi.fn((id: string) => Promise.resolve({ svg: `<svg id="${id}"></svg>`, diagramType: 'flowchart-v2' })),
}));
vi.mock('mermaid', () => ({ default: mermaid }));

describe('mermaid loader', () => {
  beforeEach(() => {
    resetMermaidForTests();
    vi.clearAllMocks();
  });

  it('imports and initialises Mermaid once, strict and not on load', async () => {
    const [a, b] = await Promise.all([loadMermaid(), loadMermaid()]);
    expect(a).toBe(b);
    await loadMermaid();
    expect(mermaid.initialize).toHaveBeenCalledTimes(1);
    expect(mermaid.initialize).toHaveBeenCalledWith(
      expect.objectContaining({ startOnLoad: false, securityLevel: 'strict', theme: 'base' }),
    );
  });

  it('parses, then renders each diagram under a fresh id', async () => {
    const first = await renderMermaid('flowchart TD\n  A --> B');
    const second = await renderMermaid('flowchart TD\n  A --> B');
    expect(mermaid.parse).toHaveBeenCalledWith('flowchart TD\n  A --> B');
    expect(mermaid.render).toHaveBeenCalledTimes(2);
    const ids = mermaid.render.mock.calls.map(([id]) => id);
    expect(new Set(ids).size).toBe(2);
    expect(ids[0]).toMatch(/^[a-z][\w-]*$/);
    expect(first).toContain('<svg');
    expect(second).not.toBe(first);
  });

  it('does not render a diagram that fails to parse', async () => {
    mermaid.parse.mockRejectedValueOnce(new Error('Parse error on line 2'));
    await expect(renderMermaid('flowchart TD\n  A -->')).rejects.toThrow('Parse error on line 2');
    expect(mermaid.render).not.toHaveBeenCalled();
  });

  it('turns whatever Mermaid throws into a message', () => {
    expect(mermaidErrorMessage(new Error('boom'))).toBe('boom');
    expect(mermaidErrorMessage('plain')).toBe('plain');
    expect(mermaidErrorMessage({ message: 'from an object', hash: {} })).toBe('from an object');
    expect(mermaidErrorMessage(42)).toBeNull();
  });
});

describe('drawn diagram schema', () => {
  it('lets no script, link, embedded resource or event handler into a diagram', () => {
    const tags = drawnDiagramSchema.tagNames ?? [];
    for (const tag of ['script', 'a', 'image', 'img', 'use', 'iframe', 'object', 'embed', 'animate', 'set']) {
      expect(tags).not.toContain(tag);
    }
    const attributes = (drawnDiagramSchema.attributes?.['*'] ?? []).map((a) => (typeof a === 'string' ? a : a[0]));
    expect(attributes.filter((a) => /^on|href|src|action/i.test(a))).toEqual([]);
    // Ids stay as drawn: the diagram's own CSS and markers refer to them.
    expect(drawnDiagramSchema.clobber).toEqual([]);
  });
});
