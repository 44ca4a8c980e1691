import { useTranslation } from 'react-i18next';

import type { GradeStatus } from '../lib/classroom-schemas';
import { GRADE_MARKS, gradeWord } from '../lib/gradebook-text';

/** A status as a symbol for the eye and a word for everyone ("✓ passed"): colour adds to it,
 *  never replaces it. */
export function GradeMark({ status }: { status: GradeStatus }) {
  const { t } = useTranslation('classroom');
  return (
    <span className={`grade-mark grade-mark--${status}`} data-testid="grade-status" data-status={status}>
      <span aria-hidden="true">{GRADE_MARKS[status]}</span> {gradeWord(status, t)}
    </span>
  );
}
