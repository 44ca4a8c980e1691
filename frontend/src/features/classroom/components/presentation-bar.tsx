import { Trans, useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import { useLanguage } from '@/hooks/use-language';

import { useStopPresenting } from '../hooks/use-classroom';
import { presentationText } from '../lib/class-text';
import type { Presentation } from '../lib/classroom-schemas';

/** The instructor's bar: what is presented to the class, and Stop presenting. */
export function PresentationBar({ classId, presentation }: { classId: string; presentation: Presentation | null }) {
  const { t } = useTranslation('classroom');
  const language = useLanguage();
  const stop = useStopPresenting(classId);
  if (!presentation) {
    return (
      <p className="presentation-bar presentation-bar--idle" data-testid="presentation-bar">
        {t('presentation.idle')}
      </p>
    );
  }
  return (
    <div className="presentation-bar" data-testid="presentation-bar">
      <p className="presentation-bar__what">
        <Trans
          t={t}
          i18nKey="presentation.presenting"
          values={{ what: presentationText(presentation, t, language) }}
          components={{ strong: <strong />, what: <span data-testid="presentation-what" /> }}
        />
      </p>
      <button
        type="button"
        className="button"
        onClick={() => {
          stop.mutate();
        }}
        disabled={stop.isPending}
      >
        {t('presentation.stop')}
      </button>
      <ActionError error={stop.error} />
    </div>
  );
}
