import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatch } from 'react-router';

import { ActionError } from '@/components/action-error';
import { formatClock } from '@/lib/dates';

import { useMyHand } from '../hooks/use-live';
import { useNow } from '../hooks/use-now';
import { timeLeft } from '../lib/class-text';
import type { ClassTimer, Live } from '../lib/classroom-schemas';

/** A countdown reads to the second. */
const TICK_MS = 1_000;

/** The class's timer, counting down on every screen. */
export function TimerCountdown({ timer }: { timer: ClassTimer }) {
  const { t } = useTranslation('classroom');
  const now = useNow(TICK_MS);
  const { left, over } = timeLeft(timer.ends_at, now);
  return (
    <span className={`live-timer${over ? ' live-timer--over' : ''}`} role="timer" data-testid="class-timer">
      {timer.label ? <strong>{timer.label}: </strong> : null}
      {over ? t('live.timeUp') : t('live.left', { left })}
    </span>
  );
}

/**
 * Under a student's class banner, while the class runs: the timer, the instructor's newest
 * announcement (until dismissed in this tab) and "I'm stuck", which puts their hand up on the
 * instructor's roster with the lesson they are on.
 */
export function LiveStrip({ classId, live }: { classId: string; live: Live | null }) {
  const { t, i18n } = useTranslation('classroom');
  const [dismissed, setDismissed] = useState<string | null>(null);
  const newest = live?.announcements[0];
  return (
    <div className="bar-inner live-strip" data-testid="live-strip">
      {live?.timer ? <TimerCountdown timer={live.timer} /> : null}
      {newest && newest.id !== dismissed ? (
        <p className="live-strip__announcement" role="status" data-testid="announcement">
          <span className="live-strip__at">{formatClock(new Date(newest.at), i18n.resolvedLanguage)}</span> {newest.text}{' '}
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              setDismissed(newest.id);
            }}
            aria-label={t('live.dismiss')}
          >
            ×
          </button>
        </p>
      ) : null}
      <HandButton classId={classId} />
    </div>
  );
}

/** "I'm stuck" (with the lesson this page shows), or the hand that is up and a way to lower it. */
export function HandButton({ classId, experiment }: { classId: string; experiment?: string }) {
  const { t } = useTranslation('classroom');
  const lesson = useMatch('/lessons/:slug')?.params.slug;
  const { hand, raise, lower } = useMyHand(classId);
  if (hand.isPending) return null;
  const up = hand.data ?? null;
  const here = up !== null && (experiment === undefined || up.experiment === experiment);
  return (
    <span className="live-strip__hand">
      {here ? (
        <>
          <span data-testid="hand-up">{t('live.handUp')}</span>{' '}
          <button type="button" className="button button--small" onClick={() => { lower.mutate(); }} disabled={lower.isPending}>
            {t('live.lowerHand')}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button button--small"
          onClick={() => { raise.mutate({ ...(lesson ? { lesson } : {}), ...(experiment && lesson ? { experiment } : {}) }); }}
          disabled={raise.isPending}
        >
          {experiment ? t('live.stuckHere') : t('live.stuck')}
        </button>
      )}
      <ActionError error={raise.error ?? lower.error} />
    </span>
  );
}
