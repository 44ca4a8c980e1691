import { ErrorMessage, Loading } from '@/components/loading';
import type { LessonSummary } from '@/lib/api-schemas';

import { useRemoveStudent, useRoster } from '../hooks/use-classroom';
import type { RosterEntry } from '../lib/classroom-schemas';

import { ActionError } from './action-error';

interface RosterTableProps {
  classId: string;
  /** The class has not ended: the roster is asked for again every few seconds. */
  live: boolean;
  /** The course's lessons, for titles and the total; undefined while they load. */
  lessons: LessonSummary[] | undefined;
}

/** Who has joined, who is here now (their class stream is open), where they are and what they ran. */
export function RosterTable({ classId, live, lessons }: RosterTableProps) {
  const roster = useRoster(classId, live);
  const remove = useRemoveStudent(classId);
  if (roster.isPending) return <Loading label="Loading the students…" />;
  if (roster.isError) return <ErrorMessage title="The students could not be loaded." error={roster.error} />;
  if (roster.data.length === 0) {
    return <p data-testid="roster-empty">Nobody has joined yet: show the join code or the QR code.</p>;
  }
  const titles = new Map((lessons ?? []).map((lesson) => [lesson.slug, lesson.title]));
  const online = roster.data.filter((s) => s.online).length;
  const confirmAndRemove = (student: RosterEntry) => {
    const question = `Remove ${student.name} from the class? They are signed out and their waiting runs are cancelled; their results stay, and their name is free again.`;
    if (window.confirm(question)) remove.mutate(student.id);
  };
  return (
    <>
      <p data-testid="roster-count">
        {online} of {roster.data.length} online
      </p>
      <div className="class-table-wrap">
        <table className="class-table" data-testid="roster">
          <thead>
            <tr>
              <th scope="col">Student</th>
              <th scope="col">Here</th>
              <th scope="col">Lesson now</th>
              <th scope="col" className="class-table__num">Lessons read</th>
              <th scope="col" className="class-table__num">Runs</th>
              <th scope="col">
                <span className="class-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
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
                    aria-label={`Remove ${student.name}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ActionError error={remove.error} />
    </>
  );
}

/** A dot for the eye and a word for everyone else (colour alone says nothing to a screen reader). */
function OnlineMark({ online }: { online: boolean }) {
  return (
    <span data-testid="online-mark">
      <span className={`online-dot${online ? ' online-dot--on' : ''}`} aria-hidden="true" />
      {online ? 'online' : 'offline'}
    </span>
  );
}
