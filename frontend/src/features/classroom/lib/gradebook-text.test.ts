import { i18next } from '@/lib/i18n';
import { anAssignment, aGradeCell } from '@/testing/classroom-fixtures';

import { assignmentSchema } from './classroom-schemas';
import { dueText, emptyCell, gradeWord, isOverdue } from './gradebook-text';

const t = i18next.getFixedT('en', 'classroom');
const NOW = Date.parse('2026-11-24T12:00:00Z');

function assignment(due_at: string | null, status?: string) {
  return assignmentSchema.parse(anAssignment({ due_at, mine: status ? aGradeCell({ status }) : null }));
}

describe('gradebook words', () => {
  it('says each status in a word', () => {
    expect(['passed', 'failed', 'pending', 'none'].map((s) => gradeWord(s as 'passed', t))).toEqual([
      'passed',
      'failed',
      'being judged',
      'not tried',
    ]);
  });

  it('says when an assignment is due, was due, or that it has no due time', async () => {
    expect(dueText(null, NOW, 'en', t)).toBe('no due time');
    expect(dueText('2026-11-25T14:30:00.000+00:00', NOW, 'en', t)).toMatch(/^due 25 Nov 2026, \d\d:30$/);
    expect(dueText('2026-11-23T14:30:00.000+00:00', NOW, 'en', t)).toMatch(/^was due 23 Nov 2026, \d\d:30$/);
    await i18next.loadLanguages('zh');
    const zh = i18next.getFixedT('zh', 'classroom');
    expect(dueText('2026-11-25T14:30:00.000+00:00', NOW, 'zh', zh)).toMatch(/^截止时间 2026年11月25日 \d\d:30$/);
  });

  it('calls an assignment overdue once its due time has passed without a passing answer', () => {
    expect(isOverdue(assignment('2026-11-24T11:00:00Z', 'failed'), NOW)).toBe(true);
    expect(isOverdue(assignment('2026-11-24T11:00:00Z', 'none'), NOW)).toBe(true);
    expect(isOverdue(assignment('2026-11-24T11:00:00Z', 'passed'), NOW)).toBe(false);
    expect(isOverdue(assignment('2026-11-24T13:00:00Z', 'failed'), NOW)).toBe(false);
    expect(isOverdue(assignment(null, 'failed'), NOW)).toBe(false);
  });

  it('reads a missing cell as nothing sent', () => {
    expect(emptyCell('et-drain')).toMatchObject({ exercise: 'et-drain', status: 'none', attempts: 0, last_variant_id: null });
  });
});
