import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import { ErrorMessage, Loading } from '@/components/loading';
import type { LessonSummary } from '@/lib/api-schemas';

import { formatClock } from '@/lib/dates';

import { useNewPersonalCode, useReadmitStudent, useRemoveStudent, useRoster } from '../hooks/use-classroom';
import { useLowerHand } from '../hooks/use-live';
import type { RosterEntry } from '../lib/classroom-schemas';

import { ClassTable } from './class-table';

interface RosterTableProps {
  classId: string;
  /** The class has not ended: the roster is asked for again every few seconds. */
  live: boolean;
  /** The course's lessons, for titles and the total; undefined while they load. */
  lessons: LessonSummary[] | undefined;
  /** The asker may remove and let back in (not a teaching assistant, who only helps). */
  canChange?: boolean;
}

/**
 * Who has joined, who is here now (their class stream is open), where they are and what they
 * ran; a new personal code for one who lost theirs; and, apart, those removed, each of whom
 * comes back only when let in.
 */
export function RosterTable({ classId, live, lessons, canChange = true }: RosterTableProps) {
  const { t } = useTranslation('classroom');
  const roster = useRoster(classId, live);
  const remove = useRemoveStudent(classId);
  const newCode = useNewPersonalCode(classId);
  const lower = useLowerHand(classId);
  if (roster.isPending) return <Loading label={t('roster.loading')} />;
  if (roster.isError) return <ErrorMessage title={t('roster.loadError')} error={roster.error} />;
  const present = roster.data.filter((s) => s.removed_at == null);
  const removed = roster.data.filter((s) => s.removed_at != null);
  if (roster.data.length === 0) {
    return <p data-testid="roster-empty">{t('roster.empty')}</p>;
  }
  const titles = new Map((lessons ?? []).map((lesson) => [lesson.slug, lesson.title]));
  const online = present.filter((s) => s.online).length;
  const hands = present.filter((s) => s.hand).length;
  const giveCode = (student: RosterEntry) => {
    if (window.confirm(t('roster.confirmNewCode', { name: student.name }))) newCode.mutate(student.id);
  };
  const shownCode = newCode.data && newCode.variables ? roster.data.find((s) => s.id === newCode.variables) : undefined;
  const confirmAndRemove = (student: RosterEntry) => {
    if (window.confirm(t('roster.confirmRemove', { name: student.name }))) remove.mutate(student.id);
  };
  return (
    <>
      <p data-testid="roster-count">
        {t('roster.online', { online, total: present.length })}
        {hands > 0 ? <strong className="roster__hand"> · {t('live.hands', { count: hands })}</strong> : null}
      </p>
      {newCode.data && shownCode ? (
        <p className="roster__code" role="status" data-testid="new-personal-code">
          {t('roster.newCodeFor', { name: shownCode.name })} <code>{newCode.data.personal_code}</code>
        </p>
      ) : null}
      <ClassTable
        testId="roster"
        columns={[
          { label: t('table.student') },
          { label: t('live.hand') },
          { label: t('roster.here') },
          { label: t('roster.lessonNow') },
          { label: t('roster.lessonsRead'), numeric: true },
          { label: t('roster.runs'), numeric: true },
        ]}
        actions
      >
        {present.map((student) => (
          <tr key={student.id} data-testid="roster-row">
            <th scope="row">{student.name}</th>
            <td>
              {student.hand ? (
                <HandMark
                  hand={student.hand}
                  name={student.name}
                  onLower={() => { lower.mutate(student.id); }}
                  lowering={lower.isPending && lower.variables === student.id}
                />
              ) : null}
            </td>
            <td>
              <OnlineMark online={student.online} />
            </td>
            <td>{student.lesson === null ? '—' : (titles.get(student.lesson) ?? student.lesson)}</td>
            <td className="class-table__num">
              {student.lessons_read} / {lessons ? lessons.length : '…'}
            </td>
            <td className="class-table__num">{student.runs}</td>
            <td className="roster__actions">
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  giveCode(student);
                }}
                disabled={newCode.isPending && newCode.variables === student.id}
                aria-label={t('roster.newCodeLabel', { name: student.name })}
              >
                {t('roster.newCode')}
              </button>
              {canChange ? (
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
              ) : null}
            </td>
          </tr>
        ))}
      </ClassTable>
      <ActionError error={remove.error ?? newCode.error ?? lower.error} />
      {removed.length > 0 && canChange ? <RemovedStudents classId={classId} removed={removed} /> : null}
    </>
  );
}

/** Those the instructor removed: nobody joins under their names until they are let back in. */
function RemovedStudents({ classId, removed }: { classId: string; removed: RosterEntry[] }) {
  const { t } = useTranslation('classroom');
  const readmit = useReadmitStudent(classId);
  return (
    <section className="roster__removed" data-testid="roster-removed" aria-label={t('roster.removedTitle')}>
      <h3>{t('roster.removedTitle')}</h3>
      <ul>
        {removed.map((student) => (
          <li key={student.id} data-testid="removed-row">
            <span>{student.name}</span>{' '}
            <button
              type="button"
              className="button button--small"
              onClick={() => { readmit.mutate(student.id); }}
              disabled={readmit.isPending && readmit.variables === student.id}
              aria-label={t('roster.readmitLabel', { name: student.name })}
            >
              {t('roster.readmit')}
            </button>
          </li>
        ))}
      </ul>
      <p className="class-header__meta">{t('roster.removedHelp')}</p>
      <ActionError error={readmit.error} />
    </section>
  );
}

/** A raised hand: where the student is stuck, since when, and the way to lower it. */
function HandMark({ hand, name, onLower, lowering }: { hand: NonNullable<RosterEntry['hand']>; name: string; onLower: () => void; lowering: boolean }) {
  const { t, i18n } = useTranslation('classroom');
  const where = [hand.lesson_title, hand.experiment_title].filter(Boolean).join(' · ');
  return (
    <span data-testid="hand-mark">
      <span className="badge roster__hand-badge">{t('live.handBadge')}</span>{' '}
      {where ? t('live.stuckOn', { where }) : null}{' '}
      <span className="live-strip__at">{t('live.handAt', { time: formatClock(new Date(hand.raised_at), i18n.resolvedLanguage) })}</span>{' '}
      <button type="button" className="button button--small" onClick={onLower} disabled={lowering} aria-label={t('live.lowerLabel', { name })}>
        {t('live.lower')}
      </button>
    </span>
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
