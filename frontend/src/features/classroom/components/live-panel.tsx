import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import { formatClock } from '@/lib/dates';

import { useLiveControls } from '../hooks/use-live';
import type { Live } from '../lib/classroom-schemas';

import { TimerCountdown } from './live-strip';

/** The timer's largest setting, as the server takes it. */
const MAX_MINUTES = 180;
const MAX_ANNOUNCEMENT = 280;

/**
 * The instructor's tools for the class in the room: a timer every student sees count down,
 * and short announcements shown at once on every student's screen. What is running comes back
 * through the class stream (`live`), the same copy the students see.
 */
export function LivePanel({ classId, live }: { classId: string; live: Live | null }) {
  const { t } = useTranslation('classroom');
  return (
    <div className="live-panel" data-testid="live-panel">
      <TimerControls classId={classId} live={live} />
      <Announcements classId={classId} live={live} />
      <p className="class-header__meta">{t('live.panelHelp')}</p>
    </div>
  );
}

function TimerControls({ classId, live }: { classId: string; live: Live | null }) {
  const { t } = useTranslation('classroom');
  const { start, stop } = useLiveControls(classId);
  const [minutes, setMinutes] = useState('10');
  const [label, setLabel] = useState('');
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    start.mutate({ minutes: Number(minutes), label });
  };
  return (
    <div>
      <h3>{t('live.timerTitle')}</h3>
      {live?.timer ? (
        <p>
          <TimerCountdown timer={live.timer} />{' '}
          <button type="button" className="button button--small" onClick={() => { stop.mutate(); }} disabled={stop.isPending}>
            {t('live.stop')}
          </button>
        </p>
      ) : (
        <p className="class-header__meta">{t('live.noTimer')}</p>
      )}
      <form onSubmit={submit} aria-label={t('live.timerTitle')}>
        <label>
          {t('live.minutes')}
          <input type="number" min={0.5} max={MAX_MINUTES} step="any" required value={minutes} onChange={(e) => { setMinutes(e.target.value); }} />
        </label>
        <label>
          {t('live.label')}
          <input maxLength={80} value={label} onChange={(e) => { setLabel(e.target.value); }} />
        </label>
        <button type="submit" className="button" disabled={start.isPending}>
          {live?.timer ? t('live.restart') : t('live.start')}
        </button>
      </form>
      <ActionError error={start.error ?? stop.error} />
    </div>
  );
}

function Announcements({ classId, live }: { classId: string; live: Live | null }) {
  const { t, i18n } = useTranslation('classroom');
  const { send } = useLiveControls(classId);
  const [text, setText] = useState('');
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    send.mutate(text, { onSuccess: () => { setText(''); } });
  };
  const sent = live?.announcements ?? [];
  return (
    <div>
      <h3>{t('live.announceTitle')}</h3>
      <form onSubmit={submit} aria-label={t('live.announceTitle')}>
        <label className="live-panel__text">
          {t('live.announcement')}
          <input required maxLength={MAX_ANNOUNCEMENT} value={text} onChange={(e) => { setText(e.target.value); }} />
        </label>
        <button type="submit" className="button" disabled={send.isPending}>
          {t('live.send')}
        </button>
      </form>
      <ActionError error={send.error} />
      {sent.length === 0 ? (
        <p className="class-header__meta">{t('live.noAnnouncements')}</p>
      ) : (
        <ul data-testid="announcements-sent">
          {sent.map((note) => (
            <li key={note.id}>
              <span className="live-strip__at">{formatClock(new Date(note.at), i18n.resolvedLanguage)}</span> {note.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
