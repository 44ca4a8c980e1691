import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';

import { useAnswerQuestion, useQuestions, useRevealQuestion } from '../hooks/use-live';
import type { ClassQuestionState } from '../lib/classroom-schemas';

export interface ClassQuestionProps {
  classId: string;
  lesson: string;
  question: number;
  /** The instructor sees every answer and reveals; a student answers. */
  role: 'instructor' | 'student';
  /** A student of an ended class: their answer is shown, nothing is sent. */
  readOnly?: boolean;
}

/**
 * A question of the lesson's Check yourself, in class. A student writes their answer (the
 * lesson's own stays hidden until the instructor reveals it); the instructor sees the
 * answers come in, by name, and reveals the lesson's answer to the class.
 */
export function ClassQuestion({ classId, lesson, question, role, readOnly = false }: ClassQuestionProps) {
  const { t } = useTranslation('classroom');
  const instructor = role === 'instructor';
  const questions = useQuestions(classId, lesson, instructor);
  const state = questions.data?.questions.find((q) => q.question === question);
  if (!state) return null;
  return (
    <div className="class-question" role="group" aria-label={t('live.question.label', { number: question })} data-testid="class-question">
      {instructor ? (
        <InstructorView classId={classId} lesson={lesson} state={state} />
      ) : (
        <StudentView classId={classId} lesson={lesson} state={state} readOnly={readOnly} />
      )}
    </div>
  );
}

function StudentView({ classId, lesson, state, readOnly }: { classId: string; lesson: string; state: ClassQuestionState; readOnly: boolean }) {
  const { t } = useTranslation('classroom');
  const save = useAnswerQuestion(classId, lesson);
  const [text, setText] = useState(state.mine ?? '');
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate({ question: state.question, answer: text });
  };
  const sent = state.mine !== null && state.mine !== undefined && state.mine === text.trim();
  return (
    <form onSubmit={submit}>
      <label>
        {t('live.question.yourAnswer')}
        <textarea value={text} maxLength={2000} required disabled={readOnly} onChange={(e) => { setText(e.target.value); }} />
      </label>
      {readOnly ? (
        <p className="class-header__meta">{t('live.question.readOnly')}</p>
      ) : (
        <p>
          <button type="submit" className="button button--small" disabled={save.isPending || sent}>
            {state.mine ? t('live.question.update') : t('live.question.send')}
          </button>{' '}
          {sent ? <span className="class-header__meta" data-testid="answer-sent">{t('live.question.saved')}</span> : null}
        </p>
      )}
      {state.revealed ? null : <p className="class-header__meta">{t('live.question.hidden')}</p>}
      <ActionError error={save.error} />
    </form>
  );
}

function InstructorView({ classId, lesson, state }: { classId: string; lesson: string; state: ClassQuestionState }) {
  const { t } = useTranslation('classroom');
  const reveal = useRevealQuestion(classId, lesson);
  const count = state.answers.length;
  return (
    <>
      <details open={count > 0}>
        <summary data-testid="answer-count">{count === 0 ? t('live.question.noAnswers') : t('live.question.answers', { count })}</summary>
        <ul className="class-question__answers" data-testid="class-answers">
          {state.answers.map((given) => (
            <li key={given.student_id}>
              <strong>{given.name}</strong>: {given.answer}
            </li>
          ))}
        </ul>
      </details>
      <p>
        <button
          type="button"
          className="button button--small"
          onClick={() => { reveal.mutate({ question: state.question, revealed: !state.revealed }); }}
          disabled={reveal.isPending}
        >
          {state.revealed ? t('live.question.hide') : t('live.question.reveal')}
        </button>{' '}
        {state.revealed ? <span className="class-header__meta">{t('live.question.revealed')}</span> : null}
      </p>
      <ActionError error={reveal.error} />
    </>
  );
}
