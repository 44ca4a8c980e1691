import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Loading } from '@/components/loading';
import { ProseMarkdown } from '@/components/prose-markdown';
import { useLanguage } from '@/hooks/use-language';
import { lessonListQuery } from '@/hooks/use-lesson';
import { usePageTitle } from '@/hooks/use-page-title';
import { ApiError } from '@/lib/api-client';
import { formatListDate } from '@/lib/dates';
import { formatBytes } from '@/lib/format';

import { exerciseQuery, type Exercise } from '../api/exercises';
import { getVariant, listVariants, VARIANTS_KEY } from '../api/variants';
import { useCheckedEditor } from '../hooks/use-checked-editor';
import type { DraftSlot } from '../hooks/use-draft-text';
import { isFinished, type CheckState, type EditT } from '../lib/check-state';
import { clearExerciseDraft, lastAnswerKey, readExerciseDraft, saveExerciseDraft } from '../lib/drafts';
import { answersTo, lessonName, verdictWord } from '../lib/exercises';

import { BuildOutcome } from './build-outcome';
import { CheckedEditorPane, CheckStatus } from './checked-editor';
import { ExerciseHints } from './exercise-hints';
import { ExerciseSolution } from './exercise-solution';
import { MeasureProgress } from './measure-progress';
import { VerdictView } from './verdict-view';

import './edit.css';
import './exercises.css';

/** A verdict asked for as the run ended may still say pending: asked again this often. */
const VERDICT_POLL_MS = 1_000;

/** "20 connections sending 4 KiB echo requests as fast as it answers, for 5 s after 1 s of
 *  warm-up, with trigger = et". Knobs are code: their names and values as the API has them. */
function describeRun(run: Exercise['run'], t: EditT): string {
  const sending = { count: run.connections, payload: formatBytes(run.payload_bytes), protocol: run.protocol };
  const knobs = Object.entries(run.knobs).map(([name, value]) => `${name} = ${String(value)}`);
  return [
    run.rate > 0 ? t('exercise.run.atRate', { ...sending, rate: run.rate }) : t('exercise.run.closedLoop', sending),
    t('exercise.run.duration', { duration: run.duration_s, warmup: run.warmup_s }),
    knobs.length ? t('exercise.run.knobs', { knobs: knobs.join(', ') }) : '',
    run.profile === 'syscalls' ? t('exercise.run.syscalls') : '',
  ]
    .filter(Boolean)
    .join(t('listSeparator'));
}

/** Where the verdict stands below the check: not asked yet, being run, or the API's. */
function VerdictSection({ state, exercise }: { state: CheckState; exercise: Exercise }) {
  const { t } = useTranslation('edit');
  const finished = isFinished(state.phase);
  const variantId = finished ? state.variantId : null;
  const answer = useQuery({
    queryKey: ['variants', variantId, 'verdict'],
    queryFn: ({ signal }) => getVariant(variantId ?? '', signal),
    enabled: variantId !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.verdict?.status === 'pending' ? VERDICT_POLL_MS : false),
  });
  const verdict = answer.data?.verdict ?? null;

  return (
    <section className="exercise-verdict" aria-labelledby="verdict-title">
      <h2 id="verdict-title">{t('exercise.verdict.title')}</h2>
      <div aria-live="polite" data-testid="verdict-area" data-variant={variantId ?? undefined}>
        {state.variantId === null ? (
          <p className="edit__muted">{t('exercise.verdict.notChecked')}</p>
        ) : !finished ? (
          <p className="edit__muted">{t('exercise.verdict.whenRunEnds')}</p>
        ) : answer.isError ? (
          <p className="edit__problem" role="alert">
            {t('exercise.verdict.readError', { detail: answer.error.message })}
          </p>
        ) : verdict ? (
          <VerdictView verdict={verdict} criteria={exercise.criteria} />
        ) : answer.data ? (
          <p className="edit__problem">{t('exercise.verdict.none', { title: exercise.title })}</p>
        ) : (
          <Loading label={t('exercise.verdict.reading')} />
        )}
      </div>
    </section>
  );
}

/** The answer's editor (kept per exercise), its check and measurement, the verdict, and the
 *  solution on request. */
function ExerciseAnswer({ exercise }: { exercise: Exercise }) {
  const { t } = useTranslation('edit');
  const { slug, starter, server, file } = exercise;
  const queryClient = useQueryClient();
  const [start] = useState(() => {
    const draft = readExerciseDraft(slug);
    return draft ? { text: draft.text, fromDraft: true } : { text: starter, fromDraft: false };
  });
  const draft = useMemo<DraftSlot>(
    () => ({ save: (next) => saveExerciseDraft(slug, next), clear: () => { clearExerciseDraft(slug); } }),
    [slug],
  );
  const editing = useCheckedEditor({
    original: starter,
    draftBase: starter,
    start,
    draft,
    lastBuildKey: lastAnswerKey(slug),
    server,
    exercise: slug,
  });
  const { state } = editing.run;

  // An answer that has ended changes the learner's list (its verdict, the exercise's status).
  const endedId = isFinished(state.phase) ? state.variantId : null;
  useEffect(() => {
    if (endedId !== null) void queryClient.invalidateQueries({ queryKey: VARIANTS_KEY });
  }, [endedId, queryClient]);

  return (
    <>
      <section className="exercise-answer" aria-labelledby="answer-title">
        <h2 id="answer-title">{t('exercise.answer.title')}</h2>
        <p className="edit__muted">
          <Trans t={t} i18nKey="exercise.answer.intro" values={{ file, server }} components={{ code: <code /> }} />
        </p>
        <CheckedEditorPane
          editing={editing}
          file={file}
          opensAt={exercise.opens_at}
          words={{
            baseName: t('exercise.answer.baseName'),
            reset: t('exercise.answer.reset'),
            check: t('exercise.answer.check'),
            cancel: t('exercise.answer.cancel'),
            editor: t('exercise.answer.editorLabel', { file }),
            changed: t('exercise.answer.yourAnswer'),
            original: t('exercise.answer.baseName'),
          }}
        />
      </section>

      <CheckStatus
        editing={editing}
        title={t('exercise.answer.checkTitle')}
        idleLabel={t('exercise.answer.notChecked')}
        keptAsKey="exercise.answer.keptAs"
        changedSince={t('exercise.answer.changedSince')}
      >
        {state.measure ? <MeasureProgress measure={state.measure} /> : null}
        <BuildOutcome state={state} onGoTo={editing.goTo} />
      </CheckStatus>

      <VerdictSection state={state} exercise={exercise} />

      <ExerciseSolution exercise={exercise} onLoad={editing.replaceText} />
    </>
  );
}

/** "Your answers": this exercise's answers from this browser, newest first, each at its page. */
function AnswerList({ slug }: { slug: string }) {
  const { t, i18n } = useTranslation('edit');
  const variants = useQuery({ queryKey: VARIANTS_KEY, queryFn: ({ signal }) => listVariants(signal) });
  const answers = variants.data ? answersTo(variants.data, slug) : [];
  return (
    <section className="variant-list" aria-labelledby="answers-title" data-testid="answer-list">
      <h2 id="answers-title">{t('exercise.answers.title')}</h2>
      {variants.isPending ? (
        <Loading />
      ) : variants.isError ? (
        <p role="alert">{t('exercise.answers.loadError', { detail: variants.error.message })}</p>
      ) : answers.length === 0 ? (
        <p className="edit__muted">{t('exercise.answers.none')}</p>
      ) : (
        <ol>
          {answers.map((v) => (
            <li key={v.id} data-verdict={v.verdict?.status}>
              <Link to={`/variants/${encodeURIComponent(v.id)}`}>
                {formatListDate(v.created_at, i18n.resolvedLanguage)} <span className="edit__muted">· {verdictWord(v, t)}</span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Why an exercise's page cannot open, with the way back to the list. */
function ExerciseProblem({ slug, error }: { slug: string; error: unknown }) {
  const { t } = useTranslation('edit');
  const notFound = error instanceof ApiError && error.status === 404;
  const title = notFound ? t('exercise.problem.notFound', { slug }) : t('exercise.problem.loadError');
  usePageTitle(title);
  return (
    <div className="page" role="alert" data-testid="exercise-problem">
      <h1>{title}</h1>
      <p>{notFound ? t('exercise.problem.checkLink') : error instanceof Error ? error.message : String(error)}</p>
      <p>
        <Link to="/exercises">{t('exercise.problem.allExercises')}</Link>
      </p>
    </div>
  );
}

/**
 * /#/exercises/:slug: the statement, how an answer is judged, hints one at a time, the starter
 * in the editor (kept per exercise), Check my answer (built, checked, run and judged: the
 * verdict with what was measured), a solution on request, and the learner's past answers.
 */
export function ExercisePage({ slug }: { slug: string }) {
  const { t } = useTranslation('edit');
  const exercise = useQuery(exerciseQuery(slug, useLanguage()));
  const lessons = useQuery(lessonListQuery(useLanguage()));
  usePageTitle(exercise.data?.title);

  if (exercise.isPending) return <Loading label={t('exercise.loading')} />;
  if (exercise.isError) return <ExerciseProblem slug={slug} error={exercise.error} />;
  const data = exercise.data;
  const lesson = lessons.data?.find((l) => l.slug === data.lesson);
  const lessonTitle = lessonName({ lesson: data.lesson, about: lesson ?? null }, t);

  return (
    <div className="edit exercise" data-testid="exercise-page">
      <header className="edit__header">
        <p className="edit__kicker">{t('exercise.kicker')}</p>
        <h1>{data.title}</h1>
        <p className="edit__intro">{data.summary}</p>
        <nav className="exercise__links" aria-label={t('exercise.around')}>
          <Link to={`/lessons/${encodeURIComponent(data.lesson)}`}>{t('exercise.backTo', { lesson: lessonTitle })}</Link>
          <Link to="/exercises">{t('exercise.allExercises')}</Link>
        </nav>
      </header>
      <div className="edit__columns">
        <div className="edit__main">
          <section className="exercise-statement" aria-labelledby="statement-title">
            <h2 id="statement-title">{t('exercise.statementTitle')}</h2>
            <ProseMarkdown markdown={data.statement} />
            <h3>{t('exercise.judgedTitle')}</h3>
            <p>{t('exercise.judged', { run: describeRun(data.run, t) })}</p>
            <ul className="exercise-statement__criteria" data-testid="criteria">
              {data.criteria.map((c) => (
                <li key={c.says}>{c.says}</li>
              ))}
            </ul>
          </section>
          <ExerciseHints hints={data.hints} />
          <ExerciseAnswer exercise={data} />
        </div>
        <aside className="edit__aside">
          <AnswerList slug={data.slug} />
        </aside>
      </div>
    </div>
  );
}
