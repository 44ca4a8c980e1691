import { afterEach, describe, expect, it, vi } from 'vitest';

import { anExportAbout } from '@/testing/fixtures';

import { copyText, downloadText, exportFileName, toCsv, toJson, toMarkdown, type ExportTable } from './export';

const sweep: ExportTable = {
  columns: ['connections', 'c-epoll', 'c-poll'],
  rows: [
    [100, 51234.5, 40210],
    [1000, 50111, null],
  ],
};

const about = anExportAbout(undefined, {
  setup: { server: 'c-epoll', connections: 100 },
  host: { cpu_model: 'AMD EPYC 7B13' },
  date: '2026-11-25T10:08:00Z',
});

describe('a result’s about in each format', () => {
  it('opens a CSV with # lines saying what, where and when, then the table as before', () => {
    expect(toCsv(sweep, about).split('\r\n')).toEqual([
      '# c-epoll run',
      '# Server: epoll (c-epoll)',
      '# Connections: 100',
      '# CPU: AMD EPYC 7B13, 2 CPUs',
      '# Measured: 25 Nov 2026, 10:08 (2026-11-25T10:08:00Z)',
      '# http://localhost:8000/#/runs/3f2a',
      'connections,c-epoll,c-poll',
      '100,51234.5,40210',
      '1000,50111,',
      '',
    ]);
  });

  it('keeps a # line on one line whatever its value holds', () => {
    const multiline = { ...about, lines: [{ label: 'Note', value: 'one\ntwo' }] };
    expect(toCsv(sweep, multiline).split('\r\n')[1]).toBe('# Note: one two');
  });

  it('puts the about beside the rows in JSON, its data keyed for programs', () => {
    const json = JSON.parse(toJson(sweep, about)) as { about: Record<string, unknown>; rows: unknown[] };
    expect(json.about).toEqual({
      title: 'c-epoll run',
      link: 'http://localhost:8000/#/runs/3f2a',
      setup: { server: 'c-epoll', connections: 100 },
      host: { cpu_model: 'AMD EPYC 7B13' },
      date: '2026-11-25T10:08:00Z',
    });
    expect(json.rows).toHaveLength(2);
  });

  it('says it above a Markdown table', () => {
    expect(toMarkdown(sweep, about).split('\n').slice(0, 8)).toEqual([
      '**c-epoll run**',
      '',
      '- Server: epoll (c-epoll)',
      '- Connections: 100',
      '- CPU: AMD EPYC 7B13, 2 CPUs',
      '- Measured: 25 Nov 2026, 10:08 (2026-11-25T10:08:00Z)',
      '- http://localhost:8000/#/runs/3f2a',
      '',
    ]);
  });
});

describe('toCsv', () => {
  it('writes a header of column names and a CRLF after every record', () => {
    expect(toCsv(sweep)).toBe('connections,c-epoll,c-poll\r\n100,51234.5,40210\r\n1000,50111,\r\n');
  });

  it('quotes fields with commas, quotes and line breaks, doubling the quotes (RFC 4180)', () => {
    const table: ExportTable = {
      columns: ['field', 'c-epoll'],
      rows: [
        ['note', 'invalid: 3 errors, "timeout"'],
        ['logs', 'line 1\nline 2'],
        ['valid', false],
      ],
    };
    expect(toCsv(table)).toBe(
      'field,c-epoll\r\nnote,"invalid: 3 errors, ""timeout"""\r\nlogs,"line 1\nline 2"\r\nvalid,false\r\n',
    );
  });
});

describe('toJson', () => {
  it('keys each row by its column names and keeps numbers and nulls', () => {
    expect(JSON.parse(toJson(sweep))).toEqual([
      { connections: 100, 'c-epoll': 51234.5, 'c-poll': 40210 },
      { connections: 1000, 'c-epoll': 50111, 'c-poll': null },
    ]);
  });
});

describe('toMarkdown', () => {
  it('writes a GFM table with numeric columns right-aligned', () => {
    expect(toMarkdown(sweep)).toBe(
      [
        '| connections | c-epoll | c-poll |',
        '| ---: | ---: | ---: |',
        '| 100 | 51234.5 | 40210 |',
        '| 1000 | 50111 |  |',
        '',
      ].join('\n'),
    );
  });

  it('escapes pipes and folds line breaks so a cell never breaks the table', () => {
    const table: ExportTable = { columns: ['field', 'a|b'], rows: [['note', 'x | y\r\nz']] };
    expect(toMarkdown(table)).toBe('| field | a\\|b |\n| --- | --- |\n| note | x \\| y z |\n');
  });
});

describe('exportFileName', () => {
  it('joins the stem and what, keeping server ids and making anything else a dash', () => {
    expect(exportFileName('c-epoll', 'results', 'csv')).toBe('c-epoll-results.csv');
    expect(exportFileName('Requests per second (QPS)', '', 'png')).toBe('requests-per-second-qps.png');
    expect(exportFileName('', '', 'json')).toBe('export.json');
  });
});

describe('the browser side', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('downloads text through a link named after the file', () => {
    // jsdom has no object URLs.
    const createObjectURL = vi.fn(() => 'blob:1');
    Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
    const clicked: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ name: this.download, href: this.href });
    });
    downloadText('c-epoll-results.csv', 'a,b\r\n', 'text/csv');
    expect(clicked).toEqual([{ name: 'c-epoll-results.csv', href: 'blob:1' }]);
    expect(createObjectURL).toHaveBeenCalledWith(expect.any(Blob));
    expect(document.querySelector('a[download]')).toBeNull(); // the link does not stay
  });

  it('copies to the clipboard, and says false when the browser refuses or has none', async () => {
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    await expect(copyText('| a |')).resolves.toBe(true);
    await expect(copyText('| a |')).resolves.toBe(false);
    vi.stubGlobal('navigator', {});
    await expect(copyText('| a |')).resolves.toBe(false);
  });
});
