/**
 * A chart as a picture that explains itself (as a Vega or Observable export does): its title,
 * what result it shows, the chart drawn large enough to read, a legend in words, the caption
 * that says what its marks mean, then the setup, host and date (ExportAbout). One layout
 * (`layoutPicture`, pure) is written out twice: as SVG text around the chart's bitmap
 * (`pictureSvg`, every word searchable and selectable) and as a PNG (`picturePng`).
 */
import type { ExportAbout } from './export';

const MARGIN = 32;

/** How large a picture is: 1200 CSS px wide at 2 device pixels per CSS px (a 2400-px PNG, sharp
 *  on a slide or a high-density screen), the chart across it inside the margins. */
export const PICTURE = { width: 1200, chartWidth: 1200 - 2 * MARGIN, chartHeight: 560, ratio: 2 } as const;

/** One entry of the picture's legend: a line's or a bar's name and its colour. */
export interface LegendEntry {
  label: string;
  colour: string;
}

export interface PictureSpec {
  /** The chart's own title: "Requests per second". */
  title: string;
  about: ExportAbout | null;
  legend: LegendEntry[];
  /** What the marks mean, as the chart's caption says on the page; '' for none. */
  caption: string;
  /** The chart's size in the picture, CSS px. */
  chart: { width: number; height: number };
  /** The picture's width, CSS px. */
  width: number;
}

type Tone = 'ink' | 'muted';

/** What a picture is made of, placed: text (y is its baseline), a legend swatch, the chart. */
export type PictureOp =
  | { kind: 'text'; x: number; y: number; text: string; size: number; bold: boolean; tone: Tone }
  | { kind: 'swatch'; x: number; y: number; size: number; colour: string }
  | { kind: 'chart'; x: number; y: number; width: number; height: number };

export interface PictureLayout {
  width: number;
  height: number;
  ops: PictureOp[];
}

export interface PictureColours {
  background: string;
  ink: string;
  muted: string;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif';
const SIZE = { title: 24, subtitle: 16, legend: 15, caption: 15, about: 14 } as const;
const LINE_HEIGHT = 1.45;

/** A wide (CJK, full-width) character takes about one em; others about 0.6 em in the fonts we
 *  name. An estimate on the wide side, so wrapped text never runs past the margin. */
function charWidth(char: string, size: number): number {
  return /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(char) ? size : size * 0.6;
}

export function textWidth(text: string, size: number): number {
  let width = 0;
  for (const char of text) width += charWidth(char, size);
  return width;
}

/** Breaks `text` into lines no wider than `width`: between words, and anywhere in CJK text
 *  (which has no spaces); a word longer than a line (a URL) is cut where it must be. */
export function wrapText(text: string, width: number, size: number): string[] {
  const tokens = text.match(/[\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uffef]+|\s+/gu) ?? [];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line.trim()) lines.push(line.trim());
    line = '';
  };
  for (const token of tokens) {
    if (textWidth(line + token, size) <= width) {
      line += token;
      continue;
    }
    if (/^\s+$/.test(token)) {
      push();
      continue;
    }
    push();
    // A token wider than the line on its own: cut it into pieces that fit.
    let rest = token;
    while (textWidth(rest, size) > width) {
      let cut = 1;
      while (cut < rest.length && textWidth(rest.slice(0, cut + 1), size) <= width) cut += 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  push();
  return lines;
}

/** Places every part of the picture top to bottom; pure, so its words can be tested. */
export function layoutPicture(spec: PictureSpec): PictureLayout {
  const ops: PictureOp[] = [];
  const inner = spec.width - 2 * MARGIN;
  let y = MARGIN;
  const paragraph = (text: string, size: number, bold: boolean, tone: Tone) => {
    for (const line of wrapText(text, inner, size)) {
      y += size * LINE_HEIGHT;
      ops.push({ kind: 'text', x: MARGIN, y: y - size * 0.35, text: line, size, bold, tone });
    }
  };

  paragraph(spec.title, SIZE.title, true, 'ink');
  if (spec.about) paragraph(spec.about.title, SIZE.subtitle, false, 'muted');
  y += 12;
  const chartX = MARGIN + Math.max(0, (inner - spec.chart.width) / 2);
  ops.push({ kind: 'chart', x: chartX, y, width: spec.chart.width, height: spec.chart.height });
  y += spec.chart.height + 12;

  // The legend flows left to right, a swatch before each name, wrapping at the margin.
  const row = SIZE.legend * LINE_HEIGHT + 4;
  let x = MARGIN;
  if (spec.legend.length) y += row;
  for (const entry of spec.legend) {
    const width = SIZE.legend + 8 + textWidth(entry.label, SIZE.legend);
    if (x > MARGIN && x + width > MARGIN + inner) {
      x = MARGIN;
      y += row;
    }
    ops.push({ kind: 'swatch', x, y: y - SIZE.legend * 0.95, size: SIZE.legend, colour: entry.colour });
    ops.push({ kind: 'text', x: x + SIZE.legend + 8, y: y - SIZE.legend * 0.2, text: entry.label, size: SIZE.legend, bold: false, tone: 'ink' });
    x += width + 24;
  }
  if (spec.legend.length) y += 8;

  if (spec.caption.trim()) {
    y += 4;
    paragraph(spec.caption.trim(), SIZE.caption, false, 'muted');
  }
  if (spec.about) {
    y += 10;
    for (const line of spec.about.lines) paragraph(`${line.label}: ${line.value}`, SIZE.about, false, 'ink');
    if (spec.about.link) paragraph(spec.about.link, SIZE.about, false, 'muted');
  }
  return { width: spec.width, height: Math.ceil(y + MARGIN), ops };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** The picture as an SVG document: every word as text, the chart as its bitmap (`chartHref`,
 *  a PNG data URL) at twice its size for sharpness. */
export function pictureSvg(layout: PictureLayout, chartHref: string, colours: PictureColours, title: string): string {
  const body = layout.ops.map((op) => {
    switch (op.kind) {
      case 'text':
        return `<text x="${op.x}" y="${op.y.toFixed(1)}" font-size="${op.size}"${op.bold ? ' font-weight="600"' : ''} fill="${escapeXml(colours[op.tone])}">${escapeXml(op.text)}</text>`;
      case 'swatch':
        return `<rect x="${op.x}" y="${op.y.toFixed(1)}" width="${op.size}" height="${op.size}" rx="3" fill="${escapeXml(op.colour)}"/>`;
      case 'chart':
        return `<image x="${op.x}" y="${op.y}" width="${op.width}" height="${op.height}" href="${escapeXml(chartHref)}"/>`;
    }
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" font-family="${escapeXml(FONT)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" fill="${escapeXml(colours.background)}"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** The picture as a PNG data URL, `ratio` device pixels per CSS pixel, on the theme's surface
 *  (a chart is drawn transparent, unreadable on a dark viewer otherwise). */
export function picturePng(layout: PictureLayout, chart: CanvasImageSource, colours: PictureColours, ratio: number): string {
  const out = document.createElement('canvas');
  out.width = Math.round(layout.width * ratio);
  out.height = Math.round(layout.height * ratio);
  const context = out.getContext('2d');
  if (!context) throw new Error('This browser cannot draw a picture (no 2D canvas).');
  context.fillStyle = colours.background;
  context.fillRect(0, 0, out.width, out.height);
  context.scale(ratio, ratio);
  for (const op of layout.ops) {
    if (op.kind === 'text') {
      context.fillStyle = colours[op.tone];
      context.font = `${op.bold ? 600 : 400} ${op.size}px ${FONT}`;
      context.textBaseline = 'alphabetic';
      context.fillText(op.text, op.x, op.y);
    } else if (op.kind === 'swatch') {
      context.fillStyle = op.colour;
      context.fillRect(op.x, op.y, op.size, op.size);
    } else {
      context.drawImage(chart, op.x, op.y, op.width, op.height);
    }
  }
  return out.toDataURL('image/png');
}
