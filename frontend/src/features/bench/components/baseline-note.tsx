import { Trans, useTranslation } from 'react-i18next';

/**
 * Says that the figures shown are a recorded reference result, and from where; and, to whoever
 * may run benchmarks here (not someone who has yet to join the class), how to measure it live.
 */
export function BaselineNote({ text, canRun = true }: { text: string; canRun?: boolean }) {
  const { t } = useTranslation('bench');
  return (
    <p className="experiment__baseline" data-testid="baseline-note">
      {canRun ? (
        <Trans t={t} i18nKey="baseline.noteRunLive" values={{ text }} components={{ strong: <strong /> }} />
      ) : (
        t('baseline.note', { text })
      )}
    </p>
  );
}
