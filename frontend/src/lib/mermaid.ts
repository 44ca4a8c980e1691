/**
 * Mermaid, loaded on demand. The library is large (it brings d3 and a parser per
 * diagram type), so it is imported dynamically the first time a lesson has a
 * ```mermaid block, and never lands in the main bundle.
 */
import type { Mermaid, MermaidConfig } from 'mermaid';
import type { Options as SanitizeSchema } from 'rehype-sanitize';

/**
 * The site's palette (src/app/styles/global.css). Mermaid derives its colours with
 * khroma, which needs concrete colours, not CSS variables, so they are repeated here.
 */
export const mermaidConfig: MermaidConfig = {
  startOnLoad: false,
  // Labels are sanitised, no click handlers or scripts run, links open nothing.
  securityLevel: 'strict',
  // A broken diagram is reported by the caller, not drawn as Mermaid's "bomb" SVG.
  suppressErrorRendering: true,
  logLevel: 'fatal',
  theme: 'base',
  themeVariables: {
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Helvetica Neue', Arial, sans-serif",
    fontSize: '15px',
    background: '#ffffff',
    primaryColor: '#e8efff', // --accent-soft
    primaryBorderColor: '#1d4ed8', // --accent
    primaryTextColor: '#1f2937', // --ink
    secondaryColor: '#e7f6ef', // --ok-bg
    secondaryBorderColor: '#047857',
    tertiaryColor: '#f6f8fa', // --code-bg
    tertiaryBorderColor: '#dfe2e6',
    lineColor: '#5b6472', // --muted
    textColor: '#1f2937',
    edgeLabelBackground: '#ffffff', // --surface, the diagram's box
  },
  flowchart: { curve: 'basis', padding: 12 },
};

let loading: Promise<Mermaid> | null = null;

/** The Mermaid API, imported and initialised once. A failed import is retried next time. */
export function loadMermaid(): Promise<Mermaid> {
  loading ??= import('mermaid').then(
    ({ default: mermaid }) => {
      mermaid.initialize(mermaidConfig);
      return mermaid;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Test hook: forget the loaded module so the next call imports (the mock) again. */
export function resetMermaidForTests(): void {
  loading = null;
}

let renderCount = 0;

/**
 * Renders one diagram to an SVG string. Throws (an Error with Mermaid's message,
 * e.g. "Parse error on line 2: …") when the source is not a valid diagram.
 */
export async function renderMermaid(source: string): Promise<string> {
  const mermaid = await loadMermaid();
  // parse() throws on invalid input without touching the DOM; render() would
  // leave temporary elements behind on some errors.
  await mermaid.parse(source);
  renderCount += 1;
  const { svg } = await mermaid.render(`c10k-mermaid-${renderCount}`, source);
  return svg;
}

/** A readable message from whatever Mermaid threw (it sometimes throws non-Errors); null when
 *  it said nothing readable. (No i18n here: `make diagrams` runs this module in Node.) */
export function mermaidErrorMessage(error: unknown): string | null {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return null;
}

/**
 * What a drawn diagram may contain when it is put in the page: what Mermaid draws flowcharts,
 * sequence and state diagrams with (SVG shapes, markers, its own `<style>`, HTML labels in
 * `<foreignObject>`), for rehype-sanitize, the sanitiser lessons' raw HTML goes through.
 * No scripts, event handlers, links or `href`s; ids are kept as they are (no `user-content-`
 * prefix), since the diagram's own CSS and markers refer to them. `make diagrams` writes
 * content/diagrams/ (our own files), and a test checks every one passes through unchanged:
 * a diagram kind using more fails that test, and is added here.
 */
export const drawnDiagramSchema: SanitizeSchema = {
  tagNames: [
    ...['svg', 'g', 'defs', 'style', 'title', 'desc', 'marker', 'symbol', 'filter', 'feDropShadow'],
    ...['linearGradient', 'stop', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon'],
    ...['text', 'tspan', 'foreignObject', 'div', 'span', 'p', 'br', 'b', 'strong', 'i', 'em', 'code'],
  ],
  attributes: {
    '*': [
      ...['id', 'className', 'style', 'xmlns', 'role', 'ariaRoleDescription', 'ariaLabelledBy'],
      ...['ariaDescribedBy', 'name', 'data*', 'transform', 'viewBox', 'width', 'height', 'x', 'y'],
      ...['x1', 'x2', 'y1', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'dx', 'dy', 'd', 'points', 'offset'],
      ...['fill', 'fillOpacity', 'fillRule', 'clipRule', 'stroke', 'strokeWidth', 'strokeDashArray'],
      ...['strokeOpacity', 'strokeLineCap', 'strokeLineJoin', 'opacity', 'markerStart', 'markerEnd'],
      ...['markerWidth', 'markerHeight', 'markerUnits', 'refX', 'refY', 'orient', 'gradientUnits'],
      ...['stopColor', 'stopOpacity', 'floodColor', 'floodOpacity', 'stdDeviation', 'textAnchor'],
      ...['dominantBaseline', 'alignmentBaseline'],
    ],
  },
  clobber: [],
  strip: ['script'],
};
