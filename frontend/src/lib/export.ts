/**
 * Results as files a learner keeps: a table as CSV, JSON or a Markdown table, a chart as PNG.
 * The formats are pure functions over one shape (columns and rows); the rest hands them to the
 * browser (a download, the clipboard). Columns that hold one server's figures are named by the
 * server's id (`c-epoll`), as everywhere else.
 */

export type Cell = string | number | boolean | null;

/** A table as exported: its header row and its rows, each as long as the header. */
export interface ExportTable {
  columns: string[];
  rows: Cell[][];
}

// ───────────────────────────── formats ─────────────────────────────

function cellText(cell: Cell): string {
  return cell === null ? '' : String(cell);
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(cell: Cell): string {
  const text = cellText(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV: a header row, CRLF after every record, empty fields for missing figures. */
export function toCsv(table: ExportTable): string {
  return [table.columns, ...table.rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** The rows as objects keyed by column name, numbers kept as numbers. */
export function toJson(table: ExportTable): string {
  const records = table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i] ?? null])));
  return `${JSON.stringify(records, null, 2)}\n`;
}

/** A GFM cell: a pipe would end the cell (escaped), a line break the row (a space instead). */
function markdownCell(cell: Cell): string {
  return cellText(cell).replaceAll('|', '\\|').replace(/\r\n|\r|\n/g, ' ');
}

/** A column whose every figure is a number is right-aligned, as the tables on the page are. */
function isNumeric(table: ExportTable, column: number): boolean {
  const cells = table.rows.map((row) => row[column] ?? null).filter((cell) => cell !== null);
  return cells.length > 0 && cells.every((cell) => typeof cell === 'number');
}

/** A GitHub-flavoured Markdown table, to paste into a report or a forum post. */
export function toMarkdown(table: ExportTable): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  const rule = table.columns.map((_, i) => (isNumeric(table, i) ? '---:' : '---'));
  return [
    line(table.columns.map(markdownCell)),
    line(rule),
    ...table.rows.map((row) => line(table.columns.map((_, i) => markdownCell(row[i] ?? null)))),
  ].join('');
}

export type TableFormat = 'csv' | 'json';

export const FORMATS: Record<TableFormat, { write: (table: ExportTable) => string; type: string }> = {
  csv: { write: toCsv, type: 'text/csv;charset=utf-8' },
  json: { write: toJson, type: 'application/json' },
};

/** `<stem>-<what>.<ext>` with anything but letters, digits, dots and dashes made a dash:
 *  `c-epoll-results.csv`, `3f2a…-qps.json`. */
export function exportFileName(stem: string, what: string, extension: string): string {
  const safe = (part: string) =>
    part
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
  return `${[safe(stem), safe(what)].filter(Boolean).join('-') || 'export'}.${extension}`;
}

// ───────────────────────────── the browser ─────────────────────────────

/** Saves `url` as `fileName` through a link's download attribute (every browser we serve). */
export function downloadUrl(fileName: string, url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves text as a file; the object URL is freed once the click has handed it over. */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  downloadUrl(fileName, url);
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 0);
}

/** Puts text on the clipboard; false when the browser refuses (an http:// page other than
 *  localhost has no clipboard API, and a user may deny it). */
export async function copyText(text: string): Promise<boolean> {
  // Absent outside a secure context, whatever the DOM types say.
  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (!clipboard) return false;
  try {
    await clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A chart's canvas as a PNG data URL, on `background` (charts are drawn transparent, and a
 * transparent PNG is unreadable on a dark viewer) with `title` above it, at the canvas's own
 * resolution. `ratio`: device pixels per CSS pixel, for the title's size.
 */
export function canvasToPng(
  canvas: HTMLCanvasElement,
  { background, ink, title, ratio }: { background: string; ink: string; title: string; ratio: number },
): string {
  const fontPx = Math.round(14 * ratio);
  const band = title ? Math.round(fontPx * 2) : 0;
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height + band;
  const context = out.getContext('2d');
  if (!context) return canvas.toDataURL('image/png');
  context.fillStyle = background;
  context.fillRect(0, 0, out.width, out.height);
  if (title) {
    context.fillStyle = ink;
    context.font = `600 ${fontPx}px system-ui, sans-serif`;
    context.textBaseline = 'middle';
    context.fillText(title, Math.round(8 * ratio), band / 2);
  }
  context.drawImage(canvas, 0, band);
  return out.toDataURL('image/png');
}
