/**
 * A drawn flame graph as a file that says what it is: the SVG d3-flame-graph drew, with the
 * result's title, setup and link (ExportAbout) above it and the styles its labels need inside
 * it, so it reads the same opened on its own.
 */
import type { ExportAbout } from '@/lib/export';

const HEADER_LINE_PX = 18;
const FONT = 'font-family: system-ui, sans-serif';
// What d3-flame-graph's stylesheet gives the frames' labels, which a lone SVG file lacks.
const LABEL_STYLE = `.d3-flame-graph-label { ${FONT}; font-size: 12px; margin-left: 4px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; color: black; }`;

function escaped(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** The header's lines: the title, then each fact as "Label: value", then the link. */
export function headerLines(about: ExportAbout | null, fallbackTitle: string): string[] {
  if (!about) return [fallbackTitle];
  return [about.title, ...about.lines.map((line) => `${line.label}: ${line.value}`), ...(about.link ? [about.link] : [])];
}

/** The flame graph's SVG, moved down under a header of `lines`, as a standalone file. */
export function flameSvgFile(svg: SVGSVGElement, lines: string[]): string {
  const width = Number(svg.getAttribute('width')) || svg.clientWidth || 1200;
  const height = Number(svg.getAttribute('height')) || svg.clientHeight || 400;
  const top = (lines.length + 1) * HEADER_LINE_PX;
  const header = lines
    .map(
      (line, i) =>
        `<text x="8" y="${(i + 1) * HEADER_LINE_PX}" style="${FONT}; font-size: ${i === 0 ? 15 : 12}px"${i === 0 ? ' font-weight="bold"' : ''}>${escaped(line)}</text>`,
    )
    .join('');
  const body = new XMLSerializer().serializeToString(svg);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + top}" viewBox="0 0 ${width} ${height + top}">` +
    `<style>${LABEL_STYLE}</style><rect width="100%" height="100%" fill="white"/>${header}` +
    `<g transform="translate(0 ${top})">${body}</g></svg>`
  );
}
