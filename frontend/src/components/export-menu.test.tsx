import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { ExportTable } from '@/lib/export';
import { i18next } from '@/lib/i18n';
import { captureDownloads, read } from '@/testing/downloads';

import { ExportMenu } from './export-menu';

const qps: ExportTable = { columns: ['connections', 'c-epoll', 'c-poll'], rows: [[100, 51000, 40000]] };
const p99: ExportTable = { columns: ['connections', 'c-epoll', 'c-poll'], rows: [[100, 310.5, 'a|b']] };
/** Two tables to export: the menu offers a choice of them. */
const qpsAndP99 = [
  { what: 'qps', label: 'QPS', table: qps },
  { what: 'p99', label: 'p99 latency', table: p99 },
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ExportMenu', () => {
  it('saves the table as CSV and JSON named after the stem, and says so', async () => {
    const user = userEvent.setup();
    const saved = captureDownloads();
    render(<ExportMenu stem="c-epoll" tables={[{ what: 'results', label: 'Results', table: qps }]} label="Export the results" />);
    expect(screen.getByRole('group', { name: 'Export the results' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).toBeNull(); // one table: nothing to choose

    await user.click(screen.getByRole('button', { name: 'CSV' }));
    await user.click(screen.getByRole('button', { name: 'JSON' }));
    expect(saved.map((s) => s.name)).toEqual(['c-epoll-results.csv', 'c-epoll-results.json']);
    expect(await read(saved[0]?.blob)).toBe('connections,c-epoll,c-poll\r\n100,51000,40000\r\n');
    expect(JSON.parse(await read(saved[1]?.blob))).toEqual([{ connections: 100, 'c-epoll': 51000, 'c-poll': 40000 }]);
    expect(screen.getByRole('status')).toHaveTextContent('Saved c-epoll-results.json');
  });

  it('exports the table chosen in its select', async () => {
    const user = userEvent.setup();
    const saved = captureDownloads();
    render(<ExportMenu stem="ab12" tables={qpsAndP99} label="Export the points" />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Table' }), 'p99 latency');
    await user.click(screen.getByTestId('export-csv'));
    expect(saved.map((s) => s.name)).toEqual(['ab12-p99.csv']);
    expect(await read(saved[0]?.blob)).toBe('connections,c-epoll,c-poll\r\n100,310.5,a|b\r\n');
  });

  it('copies the table as Markdown and shows "Copied"', async () => {
    const user = userEvent.setup();
    render(<ExportMenu stem="ab12" tables={[{ what: 'p99', label: 'p99', table: p99 }]} label="Export" />);
    await user.click(screen.getByRole('button', { name: 'Copy as Markdown' }));
    expect(await navigator.clipboard.readText()).toBe(
      '| connections | c-epoll | c-poll |\n| ---: | ---: | --- |\n| 100 | 310.5 | a\\|b |\n',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Copied');
  });

  it('shows the Markdown to copy by hand when the browser refuses the clipboard', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render(<ExportMenu stem="ab12" tables={[{ what: 'qps', label: 'QPS', table: qps }]} label="Export" />);
    await user.click(screen.getByTestId('export-markdown'));
    expect(screen.getByRole('status')).toHaveTextContent('The browser refused the clipboard');
    expect(screen.getByRole('textbox', { name: 'The table as Markdown' })).toHaveValue(
      '| connections | c-epoll | c-poll |\n| ---: | ---: | ---: |\n| 100 | 51000 | 40000 |\n',
    );
  });

  it('speaks Chinese, the file names and the columns left as they are', async () => {
    const user = userEvent.setup();
    const saved = captureDownloads();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render(<ExportMenu stem="ab12" tables={qpsAndP99} label="导出" />);
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByRole('combobox', { name: '表格' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'CSV' }));
    expect(saved.map((s) => s.name)).toEqual(['ab12-qps.csv']);
    expect(screen.getByRole('status')).toHaveTextContent('已保存 ab12-qps.csv');
    await user.click(screen.getByRole('button', { name: '复制为 Markdown' }));
    expect(screen.getByRole('status')).toHaveTextContent('浏览器拒绝访问剪贴板');
    expect(screen.getByRole('textbox', { name: 'Markdown 格式的表格' })).toHaveValue(
      '| connections | c-epoll | c-poll |\n| ---: | ---: | ---: |\n| 100 | 51000 | 40000 |\n',
    );
  });
});
