import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';

import { usePauseClass, useResumeClass } from '../hooks/use-classroom';

/**
 * Holds or releases the class's waiting runs, e.g. while the instructor explains a result
 * everyone should look at. A running run finishes either way; the sentence says which state
 * the class is in, not only the button.
 */
export function PauseToggle({ classId, paused }: { classId: string; paused: boolean }) {
  const { t } = useTranslation('classroom');
  const pause = usePauseClass(classId);
  const resume = useResumeClass(classId);
  const busy = pause.isPending || resume.isPending;
  return (
    <div className="class-page__toolbar">
      <p className={`class-note${paused ? ' class-note--paused' : ''}`} role="status" data-testid="pause-state">
        {paused ? t('pause.paused') : t('pause.running')}
      </p>
      <button
        type="button"
        className={`button${paused ? ' button--primary' : ''}`}
        onClick={() => {
          if (paused) resume.mutate();
          else pause.mutate();
        }}
        disabled={busy}
      >
        {paused ? t('pause.resume') : t('pause.pause')}
      </button>
      <ActionError error={pause.error ?? resume.error} />
    </div>
  );
}
