import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, lazy, Suspense, use, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { z } from 'zod';

import { Loading } from '@/components/loading';
import { WhenNearViewport } from '@/components/when-near-viewport';
import type { Presenter, PresentTarget } from '@/features/bench';
import { LessonPage, type ClassQuestionRenderer, type FencedBlockRenderers } from '@/features/lessons';
import { useMe, useRunGate } from '@/features/people';
import { SourceBlock } from '@/features/sources';
import { useLessonExperiment } from '@/hooks/use-lesson';
import { zClassOut, zPresentationOut } from '@/lib/api/generated/zod.gen';
import { apiRequest } from '@/lib/api-client';
import { withStrings } from '@/lib/i18n';

// The bench feature (Chart.js, run state, the widgets) is a third of a lesson's JavaScript and
// every widget sits below the first screen: it loads (with its strings) when the reader scrolls
// to the first one.
const ExperimentBlock = lazy(async () => ({
  default: (await withStrings(['bench'], () => import('@/features/bench'))).ExperimentBlock,
}));

/** Roughly a widget's height with its reference result drawn, so the page hardly moves when it comes. */
const WIDGET_HEIGHT = '60rem';

// ───────────────────── presenting, for an instructor with a class ─────────────────────

/** GET /api/classes: an instructor's classes, to choose the one to present to. */
const openClassesSchema = z.array(zClassOut);
/** The presentation (GET and PUT …/presentation): which block is shown. */
const presentedSchema = zPresentationOut;
const currentPresentationSchema = presentedSchema.nullable();

type ClassBrief = z.infer<typeof openClassesSchema>[number];

/** The class an instructor is teaching now: the newest one not ended. */
function newestOpenClass(classes: ClassBrief[]): ClassBrief | null {
  const open = classes.filter((c) => !c.ended_at);
  return open.reduce<ClassBrief | null>((newest, c) => (newest && newest.created_at >= c.created_at ? newest : c), null);
}

interface Presentation {
  present: (target: PresentTarget) => Promise<void>;
  stop: () => Promise<void>;
  /** The block this page last presented (lesson and key); null when nothing is. */
  shown: { lesson: string; experiment: string | null } | null;
}

/**
 * For an instructor with an open class: PUT and DELETE /api/classes/{id}/presentation, and what
 * was presented last, shared by every widget of the page. Null for anyone else, and for an
 * instructor with no open class. Under the people feature's ['classes'] key, so creating,
 * ending a class or signing in again refreshes it.
 */
function usePresentation(classId: string | null): Presentation | null {
  const path = `/classes/${encodeURIComponent(classId ?? '')}/presentation`;
  // What the class is shown now, read once (a presentation begun before this page opened, or
  // on the class page), then kept by this page's own PUT and DELETE answers.
  const client = useQueryClient();
  const shownKey = useMemo(() => ['classes', classId, 'presentation'], [classId]);
  const shown = useQuery({
    queryKey: shownKey,
    queryFn: ({ signal }) => apiRequest(path, currentPresentationSchema, { signal }),
    enabled: classId !== null,
  }).data;

  const present = useCallback(
    async (target: PresentTarget) => {
      if (classId === null) return;
      const answer = await apiRequest(path, presentedSchema, { method: 'PUT', body: target });
      client.setQueryData(shownKey, answer);
    },
    [classId, path, client, shownKey],
  );
  const stop = useCallback(async () => {
    if (classId === null) return;
    await apiRequest(path, z.undefined(), { method: 'DELETE' });
    client.setQueryData(shownKey, null);
  }, [classId, path, client, shownKey]);

  return useMemo(() => {
    if (classId === null) return null;
    const block = shown ? { lesson: shown.lesson, experiment: shown.experiment ?? null } : null;
    return { present, stop, shown: block };
  }, [classId, present, stop, shown]);
}

/** The class an instructor teaches now (their newest open one), or null: where they present
 *  and whose answers to the lesson's questions they see. */
function useTaughtClassId(): string | null {
  const me = useMe().data;
  const instructor = me?.mode === 'classroom' && me.person?.kind === 'instructor';
  const current = useQuery({
    queryKey: ['classes', 'open-for-presenting'],
    queryFn: ({ signal }) => apiRequest('/classes', openClassesSchema, { signal }),
    enabled: instructor,
    select: newestOpenClass,
  });
  return instructor ? (current.data?.id ?? null) : null;
}

const PresentationContext = createContext<Presentation | null>(null);

// ───────────────────── a class's questions and raised hands ─────────────────────

// The classroom feature loads for people in a class only, as the follow panel does.
const ClassQuestion = lazy(async () => ({
  default: (await withStrings(['classroom'], () => import('@/features/classroom'))).ClassQuestion,
}));
const HandButton = lazy(async () => ({
  default: (await withStrings(['classroom'], () => import('@/features/classroom'))).HandButton,
}));

interface InClass {
  classId: string;
  role: 'instructor' | 'student';
  readOnly: boolean;
}

/** Who reads this lesson as part of a class, and which: a student's own, an instructor's
 *  newest open one; null for anyone else (solo mode, a visitor). */
function useInClass(taughtClassId: string | null): InClass | null {
  const me = useMe().data;
  return useMemo(() => {
    if (me?.mode !== 'classroom' || !me.person) return null;
    if (me.person.kind === 'instructor') return taughtClassId ? { classId: taughtClassId, role: 'instructor', readOnly: false } : null;
    if (me.person.kind === 'student' && me.class) {
      return { classId: me.class.id, role: 'student', readOnly: Boolean(me.person.read_only_until) };
    }
    return null;
  }, [me, taughtClassId]);
}

const InClassContext = createContext<InClass | null>(null);

/** At each question of Check yourself: the class's answers (the classroom feature's). */
function classQuestionFor(inClass: InClass | null, lesson: string): ClassQuestionRenderer | null {
  if (!inClass) return null;
  return (question) => (
    <Suspense fallback={null}>
      <ClassQuestion {...inClass} lesson={lesson} question={question} />
    </Suspense>
  );
}

/** One block's presenter: null unless the page has a presentation and the lesson lists the block. */
function useBlockPresenter(lessonSlug: string, code: string): Presenter | null {
  const presentation = use(PresentationContext);
  const key = useLessonExperiment(lessonSlug, code)?.key;
  return useMemo(() => {
    if (!presentation || !key) return null;
    const { present, stop, shown } = presentation;
    return { present, stop, presenting: shown?.lesson === lessonSlug && shown.experiment === key };
  }, [presentation, key, lessonSlug]);
}

// ───────────────────────────── the page ─────────────────────────────

// In a class, only someone who joined (or the instructor) may run: the people feature says
// whether this browser may, and the bench feature shows its link in place of Run. An
// instructor with a class gets a Present button on each widget.
function LazyExperimentBlock({ code, lessonSlug }: { code: string; lessonSlug: string }) {
  const { t } = useTranslation();
  const gate = useRunGate();
  const presenter = useBlockPresenter(lessonSlug, code);
  const inClass = use(InClassContext);
  const key = useLessonExperiment(lessonSlug, code)?.key;
  // A student in a live class can say they are stuck on this experiment, under it.
  const stuck = inClass?.role === 'student' && !inClass.readOnly && key ? inClass.classId : null;
  return (
    <WhenNearViewport label={t('app.widgetPlaceholder')} minHeight={WIDGET_HEIGHT}>
      <Suspense fallback={<Loading label={t('app.loadingWidget')} />}>
        <ExperimentBlock code={code} lessonSlug={lessonSlug} gate={gate} presenter={presenter} />
        {stuck && key ? (
          <p className="experiment-stuck">
            <HandButton classId={stuck} experiment={key} />
          </p>
        ) : null}
      </Suspense>
    </WhenNearViewport>
  );
}

// The lesson feature knows nothing about benchmarks or sources: the app composes them here,
// telling experiment blocks which lesson they are in (for its recorded reference results).
function blocksFor(slug: string): FencedBlockRenderers {
  return {
    experiment: ({ code }) => <LazyExperimentBlock code={code} lessonSlug={slug} />,
    source: SourceBlock,
  };
}

export function LessonRoute() {
  const { slug = '' } = useParams();
  const blocks = useMemo(() => blocksFor(slug), [slug]);
  const taughtClassId = useTaughtClassId();
  const presentation = usePresentation(taughtClassId);
  const inClass = useInClass(taughtClassId);
  const classQuestion = useMemo(() => classQuestionFor(inClass, slug), [inClass, slug]);
  // Who reads: where "read" is kept (the server, in a class) and whether the speaker notes'
  // switch shows. Null while still asked; undefined (the backend did not say) as in solo mode.
  const me = useMe();
  const reader = me.isPending ? null : me.data;
  // key: a fresh page (and fresh widgets) per lesson.
  return (
    <PresentationContext value={presentation}>
      <InClassContext value={inClass}>
        <LessonPage key={slug} slug={slug} blocks={blocks} reader={reader} classQuestion={classQuestion} />
      </InClassContext>
    </PresentationContext>
  );
}
