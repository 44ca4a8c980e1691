/**
 * Results as files a learner keeps: a table as CSV, JSON or a Markdown table (a chart as PNG or
 * SVG is chart-picture.ts). The formats are pure functions over one shape (columns and rows),
 * each carrying what the result is when given it (ExportAbout); the rest hands them to the
 * browser (a download, the clipboard). Columns that hold one server's figures are named by the
 * server's id (`c-epoll`), as everywhere else.
 */

export type Cell = string | number | boolean | null;

/** A table as exported: its header row and its rows, each as long as the header. */
export interface ExportTable {
  columns: string[];
  rows: Cell[][];
}

/** One fact about a result, for people: "Connections: 100", "CPU: AMD EPYC 7B13 × 2". */
export interface AboutLine {
  label: string;
  value: string;
}

/**
 * What a result is, where and when it was measured, and where it lives, carried by every file
 * exported from it (as Vega and Observable exports carry their title and source), so a file
 * read on its own still says what it shows. `lines` are for people (a CSV's `#` lines, an
 * image's text), `data` the same facts for programs (a JSON's `about`).
 */
export interface ExportAbout {
  /** The result in words: "c-epoll, 100 connections". */
  title: string;
  /** Its permalink, absolute; null for one that has none (a recorded reference). */
  link: string | null;
  /** Setup, legend, host and date, labelled, in that order. */
  lines: AboutLine[];
  /** The request as sent, the host as recorded, the date as ISO 8601: keys for programs. */
  data: Record<string, unknown>;
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

/** The about's lines as they read in a text file: its title, each fact, its link. */
function aboutText(about: ExportAbout): string[] {
  return [about.title, ...about.lines.map((line) => `${line.label}: ${line.value}`), ...(about.link ? [about.link] : [])];
}

/** A line break inside a `#` line would start a line a reader takes for a record. */
function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/**
 * RFC 4180 CSV: a header row, CRLF after every record, empty fields for missing figures. With
 * an `about`, `#` lines before the header say what the table is (pandas reads them with
 * `comment='#'`, R's read.csv with `comment.char='#'`).
 */
export function toCsv(table: ExportTable, about?: ExportAbout | null): string {
  const preface = about ? aboutText(about).map((line) => `# ${oneLine(line)}\r\n`).join('') : '';
  return preface + [table.columns, ...table.rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** The rows as objects keyed by column name, numbers kept as numbers; with an `about`, they
 *  go under `rows` beside it: `{ "about": {title, link, ...data}, "rows": [...] }`. */
export function toJson(table: ExportTable, about?: ExportAbout | null): string {
  const records = table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i] ?? null])));
  const body = about ? { about: { title: about.title, link: about.link, ...about.data }, rows: records } : records;
  return `${JSON.stringify(body, null, 2)}\n`;
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

/** The about as Markdown above a pasted table: its title in bold, each fact, its link. */
function aboutMarkdown(about: ExportAbout): string {
  const facts = about.lines.map((line) => `- ${oneLine(line.label)}: ${oneLine(line.value)}\n`).join('');
  return `**${oneLine(about.title)}**\n\n${facts}${about.link ? `- ${about.link}\n` : ''}\n`;
}

/** A GitHub-flavoured Markdown table, to paste into a report or a forum post; with an
 *  `about`, what it shows above it. */
export function toMarkdown(table: ExportTable, about?: ExportAbout | null): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  const rule = table.columns.map((_, i) => (isNumeric(table, i) ? '---:' : '---'));
  return [
    about ? aboutMarkdown(about) : '',
    line(table.columns.map(markdownCell)),
    line(rule),
    ...table.rows.map((row) => line(table.columns.map((_, i) => markdownCell(row[i] ?? null)))),
  ].join('');
}

export type TableFormat = 'csv' | 'json';

export const FORMATS: Record<TableFormat, { write: (table: ExportTable, about?: ExportAbout | null) => string; type: string }> = {
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
