import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { Loading } from '@/components/loading';
import { ClassBanner, FollowPanel, useClassStream } from '@/features/classroom';
import { useMe } from '@/features/people';
import { LESSON_QUERY_PREFIX } from '@/hooks/use-lesson';
import type { RunEventFrame, Sweep } from '@/lib/api-schemas';
import { withStrings } from '@/lib/i18n';

// The bench feature draws a presented run or sweep with its own charts; it is a third of a
// lesson's JavaScript, so it loads when something is presented, as lesson pages load it.
const bench = () => withStrings(['bench'], () => import('@/features/bench'));
const PresentedRun = lazy(async () => ({ default: (await bench()).PresentedRun }));
const PresentedSweep = lazy(async () => ({ default: (await bench()).PresentedSweep }));
const PresentedReference = lazy(async () => ({ default: (await bench()).PresentedReference }));

function LazyPresentedRun({ runId, frames, title }: { runId: string; frames: RunEventFrame[]; title: string }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Loading label={t('app.loadingRun')} />}>
      <PresentedRun runId={runId} frames={frames} title={title} />
    </Suspense>
  );
}

function LazyPresentedSweep({ sweep, title }: { sweep: Sweep; title: string }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Loading label={t('app.loadingSeries')} />}>
      <PresentedSweep sweep={sweep} title={title} />
    </Suspense>
  );
}

function renderRun(runId: string, frames: RunEventFrame[], title: string) {
  return <LazyPresentedRun runId={runId} frames={frames} title={title} />;
}

function renderSweep(sweep: Sweep, title: string) {
  return <LazyPresentedSweep sweep={sweep} title={title} />;
}

function renderReference(lesson: string, experiment: string) {
  return (
    <Suspense fallback={null}>
      <PresentedReference lesson={lesson} experiment={experiment} />
    </Suspense>
  );
}

/**
 * A student in a class, on every page: one class stream (which is also their presence on the
 * instructor's roster), the banner under the header, and the panel that opens with whatever
 * the instructor presents. The people feature says which class (StudentClass); the classroom
 * feature says what the class is doing; the bench feature draws what is shown.
 */
export function ClassFollow({ classId }: { classId: string }) {
  const stream = useClassStream(classId);

  // The class ended, or the stream was cut after it had been open (the instructor may have
  // removed this student, which ends their session): ask again who this browser is. If nobody,
  // StudentClass unmounts this and the stream stops retrying.
  const { refetch } = useMe();
  const wasConnected = useRef(false);
  useEffect(() => {
    if (stream.connected) wasConnected.current = true;
    else if (wasConnected.current) void refetch();
  }, [stream.connected, refetch]);
  useEffect(() => {
    if (stream.ended) void refetch();
  }, [stream.ended, refetch]);

  // A question's answer revealed (or hidden again): the lessons are read again, now with it.
  const client = useQueryClient();
  const revealed = JSON.stringify(stream.live?.revealed ?? null);
  const firstRevealed = useRef(revealed);
  useEffect(() => {
    if (revealed === firstRevealed.current) return;
    firstRevealed.current = revealed;
    void client.invalidateQueries({ queryKey: LESSON_QUERY_PREFIX });
  }, [revealed, client]);

  return (
    <>
      <ClassBanner klass={stream.klass} ended={stream.ended} live={stream.live} />
      <FollowPanel
        presentation={stream.presentation}
        runFrames={stream.runFrames}
        sweep={stream.sweep}
        renderRun={renderRun}
        renderSweep={renderSweep}
        renderReference={renderReference}
      />
    </>
  );
}
