import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ClassTableColumn {
  /** The column's heading (translated); it names the column, so it is its key too. */
  label: string;
  /** Figures: set to the right, as `class-table__num`. */
  numeric?: boolean;
}

interface ClassTableProps {
  testId: string;
  columns: ClassTableColumn[];
  /** A last column of buttons, its heading said to screen readers only. */
  actions?: boolean;
  /** The table's `<caption>`, if it has one. */
  caption?: ReactNode;
  /** The rows. */
  children: ReactNode;
}

/** One of the class page's and board's tables: it scrolls in its own box on a narrow screen,
 *  each column headed, a row per student, run or runner. */
export function ClassTable({ testId, columns, actions = false, caption, children }: ClassTableProps) {
  const { t } = useTranslation('classroom');
  return (
    <div className="class-table-wrap">
      <table className="class-table" data-testid={testId}>
        {caption}
        <thead>
          <tr>
            {columns.map(({ label, numeric }) => (
              <th key={label} scope="col" className={numeric ? 'class-table__num' : undefined}>
                {label}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">{t('table.actions')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
