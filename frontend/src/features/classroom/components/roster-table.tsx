import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import { ErrorMessage, Loading } from '@/components/loading';
import type { LessonSummary } from '@/lib/api-schemas';

import { useRemoveStudent, useRoster } from '../hooks/use-classroom';
import type { RosterEntry } from '../lib/classroom-schemas';

import { ClassTable } from './class-table';

interface RosterTableProps {
  classId: string;
  /** The class has not ended: the roster is asked for again every few seconds. */
  live: boolean;
  /** The course's lessons, for titles and the total; undefined while they load. */
  lessons: LessonSummary[] | undefined;
}

/** Who has joined, who is here now (their class stream is open), where they are and what they ran. */
export function RosterTable({ classId, live, lessons }: RosterTableProps) {
  const { t } = useTranslation('classroom');
  const roster = useRoster(classId, live);
  const remove = useRemoveStudent(classId);
  if (roster.isPending) return <Loading label={t('roster.loading')} />;
  if (roster.isError) return <ErrorMessage title={t('roster.loadError')} error={roster.error} />;
  if (roster.data.length === 0) {
    return <p data-testid="roster-empty">{t('roster.empty')}</p>;
  }
  const titles = new Map((lessons ?? []).map((lesson) => [lesson.slug, lesson.title]));
  const online = roster.data.filter((s) => s.online).length;
  const confirmAndRemove = (student: RosterEntry) => {
    if (window.confirm(t('roster.confirmRemove', { name: student.name }))) remove.mutate(student.id);
  };
  return (
    <>
      <p data-testid="roster-count">{t('roster.online', { online, total: roster.data.length })}</p>
      <ClassTable
        testId="roster"
        columns={[
          { label: t('table.student') },
          { label: t('roster.here') },
          { label: t('roster.lessonNow') },
          { label: t('roster.lessonsRead'), numeric: true },
          { label: t('roster.runs'), numeric: true },
        ]}
        actions
      >
        {roster.data.map((student) => (
          <tr key={student.id} data-testid="roster-row">
            <th scope="row">{student.name}</th>
            <td>
              <OnlineMark online={student.online} />
            </td>
            <td>{student.lesson === null ? '—' : (titles.get(student.lesson) ?? student.lesson)}</td>
            <td className="class-table__num">
              {student.lessons_read} / {lessons ? lessons.length : '…'}
            </td>
            <td className="class-table__num">{student.runs}</td>
            <td>
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  confirmAndRemove(student);
                }}
                disabled={remove.isPending && remove.variables === student.id}
                aria-label={t('roster.removeLabel', { name: student.name })}
              >
                {t('roster.remove')}
              </button>
            </td>
          </tr>
        ))}
      </ClassTable>
      <ActionError error={remove.error} />
    </>
  );
}

/** A dot for the eye and a word for everyone else (colour alone says nothing to a screen reader). */
function OnlineMark({ online }: { online: boolean }) {
  const { t } = useTranslation('classroom');
  return (
    <span data-testid="online-mark">
      <span className={`online-dot${online ? ' online-dot--on' : ''}`} aria-hidden="true" />
      {online ? t('roster.isOnline') : t('roster.isOffline')}
    </span>
  );
}
