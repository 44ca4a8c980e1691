import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { copyText, downloadText, exportFileName, FORMATS, toMarkdown, type ExportTable, type TableFormat } from '@/lib/export';

import { useExportAbout } from './export-about';

import './export-menu.css';

/** One table the menu can export: `what` names its files (`<stem>-<what>.csv`), `label` the choice. */
export interface NamedTable {
  what: string;
  label: string;
  table: ExportTable;
}

interface ExportMenuProps {
  /** What the files are named after: a server id, a sweep id, a class's board. */
  stem: string;
  /** The tables; with more than one, a select chooses the one the buttons export. */
  tables: NamedTable[];
  /** Names the group for assistive technology, e.g. "Export the results". */
  label: string;
}

type Status = { kind: 'none' } | { kind: 'saved'; name: string } | { kind: 'copied' } | { kind: 'refused'; markdown: string };

/**
 * CSV, JSON and "Copy as Markdown" for a results table, beside it, each saying what the result
 * is (setup, host, date, link) when the page gives it (ExportAboutContext). When the browser refuses the
 * clipboard (an http:// page has none), the Markdown is shown to select and copy by hand.
 */
export function ExportMenu({ stem, tables, label }: ExportMenuProps) {
  const [chosen, setChosen] = useState(0);
  const [status, setStatus] = useState<Status>({ kind: 'none' });
  const selectId = useId();
  const about = useExportAbout();
  const { t } = useTranslation();
  const current = tables[Math.min(chosen, tables.length - 1)];
  if (!current) return null;

  const save = (format: TableFormat) => {
    const name = exportFileName(stem, current.what, format);
    downloadText(name, FORMATS[format].write(current.table, about), FORMATS[format].type);
    setStatus({ kind: 'saved', name });
  };
  const copy = async () => {
    const markdown = toMarkdown(current.table, about);
    setStatus((await copyText(markdown)) ? { kind: 'copied' } : { kind: 'refused', markdown });
  };

  return (
    <div className="export-menu" role="group" aria-label={label} data-testid="export-menu">
      {tables.length > 1 ? (
        <span className="inline-field">
          <label htmlFor={selectId}>{t('exportMenu.table')}</label>
          <select
            id={selectId}
            value={chosen}
            onChange={(event) => {
              setChosen(Number(event.target.value));
              setStatus({ kind: 'none' });
            }}
            data-testid="export-table"
          >
            {tables.map((table, i) => (
              <option key={table.what} value={i}>
                {table.label}
              </option>
            ))}
          </select>
        </span>
      ) : null}
      <button type="button" className="button button--small" onClick={() => {
          save('csv');
        }} data-testid="export-csv">
        CSV
      </button>
      <button type="button" className="button button--small" onClick={() => {
          save('json');
        }} data-testid="export-json">
        JSON
      </button>
      <button type="button" className="button button--small" onClick={() => void copy()} data-testid="export-markdown">
        {t('exportMenu.copyMarkdown')}
      </button>
      <span className="export-menu__status" role="status" data-testid="export-status">
        {status.kind === 'saved' ? t('exportMenu.saved', { name: status.name }) : null}
        {status.kind === 'copied' ? t('exportMenu.copied') : null}
        {status.kind === 'refused' ? t('exportMenu.refused') : null}
      </span>
      {status.kind === 'refused' ? (
        <textarea
          className="export-menu__fallback"
          readOnly
          value={status.markdown}
          aria-label={t('exportMenu.markdownLabel')}
          rows={Math.min(12, current.table.rows.length + 2)}
          onFocus={(event) => {
            event.currentTarget.select();
          }}
        />
      ) : null}
    </div>
  );
}
