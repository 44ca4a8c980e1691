import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { formatListDate } from '@/lib/dates';

import type { GradeCell, Gradebook } from '../lib/classroom-schemas';

import { ClassTable } from './class-table';
import { GradeMark } from './grade-mark';

/**
 * Students × assigned exercises: in each cell the status (a word and a symbol), the attempts,
 * when the newest answer was sent, "late" when it passed only after the due time, why the
 * newest failed, and a link to that answer's page (its source and its check, read-only); at
 * the end of a row, how many the student passed.
 */
export function GradebookTable({ gradebook }: { gradebook: Gradebook }) {
  const { t } = useTranslation('classroom');
  const { assignments, students } = gradebook;
  if (students.length === 0) return <p data-testid="gradebook-empty">{t('gradebook.noStudents')}</p>;
  return (
    <ClassTable
      testId="gradebook"
      caption={<caption className="gradebook__caption">{t('gradebook.caption')}</caption>}
      columns={[
        { label: t('table.student') },
        ...assignments.map((a) => ({ label: a.title })),
        { label: t('gradebook.passed'), numeric: true },
      ]}
    >
      {students.map((student) => (
        <tr key={student.student_id} data-testid="gradebook-row">
          <th scope="row">{student.name}</th>
          {student.cells.map((cell, i) => (
            <td key={cell.exercise} className="grade-cell" data-testid="grade-cell" data-exercise={cell.exercise} data-status={cell.status}>
              <GradeCellView cell={cell} name={student.name} title={assignments[i]?.title ?? cell.exercise} />
            </td>
          ))}
          <td className="class-table__num" data-testid="gradebook-passed">
            {t('gradebook.passedOf', { passed: student.passed, total: assignments.length })}
          </td>
        </tr>
      ))}
    </ClassTable>
  );
}

/** One student's answers to one exercise. `name` and `title` name the link to the newest answer
 *  for a screen reader, which hears it out of its row and column. */
function GradeCellView({ cell, name, title }: { cell: GradeCell; name: string; title: string }) {
  const { t, i18n } = useTranslation('classroom');
  return (
    <>
      <GradeMark status={cell.status} />
      {cell.late ? (
        <span className="badge badge--warn" title={t('grade.lateTitle')} data-testid="grade-late">
          {t('grade.late')}
        </span>
      ) : null}
      {cell.attempts > 0 ? (
        <span className="grade-cell__line" data-testid="grade-attempts">
          {t('grade.attempts', { count: cell.attempts })}
        </span>
      ) : null}
      {cell.last_attempt_at ? (
        <span className="grade-cell__line grade-cell__muted">
          {t('grade.lastSent', { when: formatListDate(cell.last_attempt_at, i18n.resolvedLanguage) })}
        </span>
      ) : null}
      {cell.status === 'failed' && cell.failed.length > 0 ? (
        <span className="grade-cell__line grade-cell__muted" data-testid="grade-why">
          {t('grade.why', { names: cell.failed.join(', ') })}
        </span>
      ) : null}
      {cell.last_variant_id ? (
        <span className="grade-cell__line">
          <Link to={`/variants/${encodeURIComponent(cell.last_variant_id)}`} aria-label={t('grade.newestLabel', { name, title })}>
            {t('grade.newest')}
          </Link>
        </span>
      ) : null}
    </>
  );
}
